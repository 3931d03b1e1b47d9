package io.swale.config.redis;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.swale.config.redis.FailoverDetector.Failover;
import io.swale.run.Reconciler;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failover policy (spec §14 #24): a new primary may have lost the last writes the old one acknowledged, so
 * the reconciler walks every active run at once instead of at its next interval. Every replica detects the
 * failover; a lock named after the new primaries lets one scheduler replica run the pass per failover.
 */
public final class FailoverReconcile implements Consumer<Failover> {
    private static final Logger log = LoggerFactory.getLogger(FailoverReconcile.class);
    public static final String FAILOVERS = "swale.redis.failovers";
    public static final String FAILOVER_PASSES = "swale.redis.failover.reconciles";

    private final String topology;
    private final Reconciler reconciler;
    private final LockingTaskExecutor locks;
    private final BooleanSupplier scheduler;
    private final Counter failovers;
    private final Counter passes;

    public FailoverReconcile(String topology, Reconciler reconciler, LockingTaskExecutor locks,
            BooleanSupplier scheduler, MeterRegistry registry) {
        this.topology = topology;
        this.reconciler = reconciler;
        this.locks = locks;
        this.scheduler = scheduler;
        this.failovers = Counter.builder(FAILOVERS).description("Redis primary changes detected (failover,"
                + " restart, slot move)").register(registry);
        this.passes = Counter.builder(FAILOVER_PASSES).description("Reconciler passes this replica ran because"
                + " of a Redis failover").register(registry);
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
            locks.executeWithLock((Runnable) () -> {
                var pass = reconciler.pass();
                passes.increment();
                log.warn("reconcile pass after redis failover activeRuns={} submitted={} settled={} redispatched={}"
                        + " reaped={} failed={}", pass.activeRuns(), pass.submitted(), pass.settled(),
                        pass.redispatched(), pass.reaped(), pass.failed());
            }, new LockConfiguration(ClockProvider.now(), lock, Duration.ofMinutes(5), Duration.ofMinutes(1)));
        } catch (RuntimeException e) {
            // the periodic pass will still come; say why this one did not run
            log.warn("reconcile pass after redis failover failed error={}", e.toString());
        }
    }
}
