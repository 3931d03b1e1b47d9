package io.swale.run;

import io.swale.task.ReconcilePass;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Reconciler#passAfterFault} on a thread of its own when a fault may have lost dispatches, so the
 * instances it left pending start within seconds rather than after {@code stale-dispatch}. A request made while
 * a pass runs gets one more pass after it; any number of requests made meanwhile share that one.
 */
public final class AfterFaultReconcile implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AfterFaultReconcile.class);
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final Supplier<ReconcilePass> pass;
    private final ExecutorService executor =
            Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("swale-fault-reconcile").factory());
    private final AtomicBoolean queued = new AtomicBoolean();

    public AfterFaultReconcile(Supplier<ReconcilePass> pass) {
        this.pass = pass;
    }

    /** Asks for a pass because of {@code fault} (logged); returns at once. */
    public void request(String fault) {
        if (queued.compareAndSet(false, true)) {
            try {
                executor.execute(() -> {
                    queued.set(false);
                    run(fault);
                });
            } catch (RejectedExecutionException e) {
                // closed: the service is stopping, and the next start's pass repairs
                queued.set(false);
            }
        }
    }

    private void run(String fault) {
        try {
            ReconcilePass p = pass.get();
            log.info("reconcile pass after fault=\"{}\" activeRuns={} submitted={} settled={} cancelled={}"
                    + " redispatched={} reaped={} failed={}", fault, p.activeRuns(), p.submitted(), p.settled(),
                    p.cancelled(), p.redispatched(), p.reaped(), p.failed());
        } catch (RuntimeException e) {
            log.warn("reconcile pass after fault=\"{}\" failed, the periodic pass repairs instead error={}", fault,
                    e.toString());
        }
    }

    /** Lets a pass already asked for finish, for at most {@link #CLOSE_WAIT}; then interrupts it. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
    }
}
