package io.swale.config.redis;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.swale.config.redis.FailoverDetector.Failover;
import io.swale.task.ReconcilePass;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failover policy (spec §14 #24): a new primary may have lost the last writes the old one acknowledged, so
 * the reconciler walks every active run at once instead of at its next interval. Every replica detects the
 * failover; a lock named after the new primaries lets one scheduler replica run the pass per failover.
 *
 * <p>The watch may see the new primary before the clients do (each learns of the switch from the sentinels on
 * its own), so taking the lock and the pass are retried until the clients follow, as {@link #DEFAULT_RETRY}
 * allows.
 */
public final class FailoverReconcile implements Consumer<Failover> {
    private static final Logger log = LoggerFactory.getLogger(FailoverReconcile.class);
    public static final String FAILOVERS = "swale.redis.failovers";
    public static final String FAILOVER_PASSES = "swale.redis.failover.reconciles";

    /** About 35 s of tries: longer than a sentinel election and a client's switch, shorter than a periodic pass. */
    public static final RetryConfig DEFAULT_RETRY = retry(20, Duration.ofMillis(200), Duration.ofSeconds(2));

    private final String topology;
    private final Supplier<ReconcilePass> reconciler;
    private final LockingTaskExecutor locks;
    private final BooleanSupplier scheduler;
    private final Retry retry;
    private final Counter failovers;
    private final Counter passes;

    public FailoverReconcile(String topology, Supplier<ReconcilePass> reconciler, LockingTaskExecutor locks,
            BooleanSupplier scheduler, MeterRegistry registry, RetryConfig retry) {
        this.topology = topology;
        this.reconciler = reconciler;
        this.locks = locks;
        this.scheduler = scheduler;
        this.retry = Retry.of("redis-failover-reconcile", retry);
        this.retry.getEventPublisher().onRetry(e -> log.warn("reconcile pass after redis failover failed, trying"
                + " again try={} waitMs={} error={}", e.getNumberOfRetryAttempts(), e.getWaitInterval().toMillis(),
                String.valueOf(e.getLastThrowable())));
        this.failovers = Counter.builder(FAILOVERS).description("Redis primary changes detected (failover,"
                + " restart, slot move)").register(registry);
        this.passes = Counter.builder(FAILOVER_PASSES).description("Reconciler passes this replica ran because"
                + " of a Redis failover").register(registry);
    }

    /** Tries at most {@code attempts} times, waiting {@code first}, then twice as long each time up to {@code max}. */
    public static RetryConfig retry(int attempts, Duration first, Duration max) {
        return RetryConfig.custom()
                .maxAttempts(attempts)
                .intervalFunction(IntervalFunction.ofExponentialBackoff(first, 2.0, max))
                // a pass that failed every try inside the lock is not retried by taking the lock again
                .retryOnException(e -> !(e instanceof PassFailed))
                .build();
    }

    @Override
    public void accept(Failover failover) {
        failovers.increment();
        log.warn("redis failover detected topology=\"{}\" changes=\"{}\" action={}", topology,
                String.join("; ", failover.changes()), scheduler.getAsBoolean() ? "reconcile" : "none");
        if (!scheduler.getAsBoolean()) {
            return;
        }
        String lock = "reconciler-failover-" + Integer.toHexString(failover.after().hashCode());
        try {
            // held for a minute after the pass, so replicas that detect the same failover later skip it
            retry.executeRunnable(() -> locks.executeWithLock((Runnable) this::passRetried,
                    new LockConfiguration(ClockProvider.now(), lock, Duration.ofMinutes(5), Duration.ofMinutes(1))));
        } catch (RuntimeException e) {
            // the periodic pass will still come; say why this one did not run
            Throwable cause = e instanceof PassFailed ? e.getCause() : e;
            log.warn("reconcile pass after redis failover gave up tries={} error={}",
                    retry.getRetryConfig().getMaxAttempts(), String.valueOf(cause));
        }
    }

    private void passRetried() {
        ReconcilePass pass;
        try {
            pass = retry.executeSupplier(reconciler);
        } catch (RuntimeException e) {
            throw new PassFailed(e);
        }
        passes.increment();
        log.warn("reconcile pass after redis failover activeRuns={} submitted={} settled={} cancelled={}"
                + " redispatched={} reaped={} restored={} failed={}", pass.activeRuns(), pass.submitted(),
                pass.settled(), pass.cancelled(), pass.redispatched(), pass.reaped(), pass.restored(), pass.failed());
    }

    /** Every try of the pass failed while this replica held the failover's lock. */
    private static final class PassFailed extends RuntimeException {
        PassFailed(RuntimeException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
