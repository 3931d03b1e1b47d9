package io.swale.config.redis;

import io.swale.config.redis.FailoverDetector.Failover;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Probes the primaries every {@code interval} on a thread of its own and hands each detected failover to
 * {@code onFailover} (the clients follow the primary themselves: JedisSentineled, JedisCluster's slot cache). A probe that fails (Redis down, election under way) is logged at debug and retried next
 * tick: the store's own calls report the outage.
 */
public final class FailoverWatch implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(FailoverWatch.class);

    private final Supplier<PrimarySnapshot> probe;
    private final Duration interval;
    private final Consumer<Failover> onFailover;
    private final FailoverDetector detector = new FailoverDetector();
    private volatile ScheduledExecutorService executor;

    public FailoverWatch(Supplier<PrimarySnapshot> probe, Duration interval, Consumer<Failover> onFailover) {
        this.probe = probe;
        this.interval = interval;
        this.onFailover = onFailover;
    }

    /** One probe and its consequences; the scheduled thread calls it, tests may too. */
    public void tick() {
        PrimarySnapshot now;
        try {
            now = probe.get();
        } catch (RuntimeException e) {
            log.debug("redis primary probe failed error={}", e.toString());
            return;
        }
        try {
            detector.observe(now).ifPresent(onFailover);
        } catch (RuntimeException e) {
            log.warn("redis failover handling failed error={}", e.toString());
        }
    }

    @Override
    public void start() {
        ScheduledExecutorService ex = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "swale-redis-failover-watch");
            t.setDaemon(true);
            return t;
        });
        ex.scheduleWithFixedDelay(this::tick, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        executor = ex;
    }

    @Override
    public void stop() {
        ScheduledExecutorService ex = executor;
        executor = null;
        if (ex != null) {
            ex.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }

    /** Before the listeners stop, after they start: the store is usable while the watch runs. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 2000;
    }
}
