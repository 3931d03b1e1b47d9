package io.swale.lifecycle;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.context.SmartLifecycle;

/**
 * Runs {@link #tick()} on a daemon thread of its own, at a fixed delay, from the context's start to its stop: for
 * the per-replica loops (lag gauges, failover probe, resource reap) that no lock makes singletons, unlike the
 * Quartz jobs.
 */
public abstract class FixedDelayLoop implements SmartLifecycle {
    private final String threadName;
    private final Duration firstDelay;
    private final Duration delay;
    private volatile ScheduledExecutorService timer;

    protected FixedDelayLoop(String threadName, Duration firstDelay, Duration delay) {
        this.threadName = threadName;
        this.firstDelay = firstDelay;
        this.delay = delay;
    }

    /** One pass; an exception it throws would end the loop, so it catches what it can survive. */
    protected abstract void tick();

    /** Whether this replica runs the loop at all; work to do once before the first tick goes here too. */
    protected boolean prepare() {
        return true;
    }

    @Override
    public void start() {
        if (!prepare()) {
            return;
        }
        ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, threadName);
            thread.setDaemon(true);
            return thread;
        });
        t.scheduleWithFixedDelay(this::tick, firstDelay.toMillis(), delay.toMillis(), TimeUnit.MILLISECONDS);
        timer = t;
    }

    @Override
    public void stop() {
        ScheduledExecutorService t = timer;
        timer = null;
        if (t != null) {
            t.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
