package io.swale.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.swale.task.ReconcilePass;
import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The meters of docs/operations.md, on the application's Micrometer registry. */
public final class MicrometerSwaleMetrics implements SwaleMetrics {
    public static final String RUNS_STARTED = "swale.runs.started";
    public static final String RUNS_SETTLED = "swale.runs.settled";
    public static final String READY_TO_SUBMITTED = "swale.tasks.ready.to.submitted";
    public static final String SUBMITTED_TO_STARTED = "swale.tasks.submitted.to.started";
    public static final String TASK_DURATION = "swale.tasks.duration";
    public static final String TASKS_TERMINATED = "swale.tasks.terminated";
    public static final String RECONCILER_PASS = "swale.reconciler.pass";
    public static final String RECONCILER_REPAIRS = "swale.reconciler.repairs";
    public static final String RECONCILER_ACTIVE_RUNS = "swale.reconciler.active.runs";
    public static final String DEAD_LETTERS = "swale.deadletters";
    public static final String HEARTBEAT_FAILURES = "swale.worker.heartbeat.failures";
    public static final String LEASES_LOST = "swale.worker.leases.lost";
    public static final String SETTLE_RETRIES = "swale.worker.settle.retries";
    public static final String SETTLES_ABANDONED = "swale.worker.settles.abandoned";
    public static final String LISTENER_RETRIES = "swale.listener.retries";
    public static final String REPAIR_FAILURES = "swale.repair.failures";

    private final MeterRegistry registry;
    private final AtomicLong activeRuns = new AtomicLong();

    public MicrometerSwaleMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge(RECONCILER_ACTIVE_RUNS, activeRuns);
    }

    @Override
    public void runStarted(String graph) {
        Counter.builder(RUNS_STARTED).description("Graph runs created").tag("graph", graph)
                .register(registry).increment();
    }

    @Override
    public void runSettled(String graph, String state) {
        Counter.builder(RUNS_SETTLED).description("Graph runs that reached a final state")
                .tag("graph", graph).tag("state", state).register(registry).increment();
    }

    @Override
    public void submitted(String pool, long readyToSubmittedMs) {
        latency(READY_TO_SUBMITTED, "From a node becoming ready to its task instance being submitted", pool)
                .record(readyToSubmittedMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void started(String pool, long submittedToStartedMs) {
        latency(SUBMITTED_TO_STARTED, "From submission to the first attempt's claim by a pool worker", pool)
                .record(submittedToStartedMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void attemptFinished(String pool, String result, long durationNanos) {
        Timer.builder(TASK_DURATION).description("Duration of one attempt, claim to settle")
                .tag("pool", pool).tag("result", result).publishPercentileHistogram()
                .maximumExpectedValue(Duration.ofHours(6))
                .register(registry).record(durationNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void taskTerminated(String pool, String outcome) {
        Counter.builder(TASKS_TERMINATED).description("Task instances that ended with a node record")
                .tag("pool", pool).tag("outcome", outcome).register(registry).increment();
    }

    @Override
    public void reconcilerPass(long durationNanos, ReconcilePass pass) {
        Timer.builder(RECONCILER_PASS).description("Duration of one reconciler pass").register(registry)
                .record(durationNanos, TimeUnit.NANOSECONDS);
        activeRuns.set(pass.activeRuns());
        repair("submitted", pass.submitted());
        repair("settled", pass.settled());
        repair("cancelled", pass.cancelled());
        repair("redispatched", pass.redispatched());
        repair("reaped", pass.reaped());
    }

    @Override
    public void repairFailed(String pass) {
        Counter.builder(REPAIR_FAILURES).description("Runs (leases, delayed entries) a repair pass failed on and skipped")
                .tag("pass", pass).register(registry).increment();
    }

    @Override
    public void deadLetter(String topic) {
        Counter.builder(DEAD_LETTERS).description("Records sent to a dead-letter topic").tag("topic", topic)
                .register(registry).increment();
    }

    @Override
    public void heartbeatFailed(String pool) {
        poolCounter(HEARTBEAT_FAILURES, "Heartbeats of running attempts the store did not answer", pool);
    }

    @Override
    public void leaseLost(String pool) {
        poolCounter(LEASES_LOST, "Running attempts stopped because their lease passed without an extension", pool);
    }

    @Override
    public void settleRetried(String pool) {
        poolCounter(SETTLE_RETRIES, "Settle steps tried again after a transient failure", pool);
    }

    @Override
    public void settleAbandoned(String pool) {
        poolCounter(SETTLES_ABANDONED,
                "Attempt results dropped because the lease ended before the settle reached the store", pool);
    }

    private void poolCounter(String name, String description, String pool) {
        Counter.builder(name).description(description).tag("pool", pool).register(registry).increment();
    }

    @Override
    public void listenerRetry(String topic, String cause) {
        Counter.builder(LISTENER_RETRIES).description("Records a listener retried instead of dead-lettering them")
                .tag("topic", topic).tag("cause", cause).register(registry).increment();
    }

    private void repair(String kind, int n) {
        Counter c = Counter.builder(RECONCILER_REPAIRS).description("What reconciler passes repaired")
                .tag("kind", kind).register(registry);
        if (n > 0) {
            c.increment(n);
        }
    }

    private Timer latency(String name, String description, String pool) {
        return Timer.builder(name).description(description).tag("pool", pool).publishPercentileHistogram()
                .maximumExpectedValue(Duration.ofMinutes(10)).register(registry);
    }
}
