package io.swale.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.swale.task.ReconcilePass;
import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
    public static final String SENDS_LOST = "swale.kafka.sends.lost";

    private final MeterRegistry registry;
    private final AtomicLong activeRuns = new AtomicLong();
    /**
     * The meters by name and tags. A builder's {@code register} builds the meter's id and configuration before it
     * finds the meter already there: 1.4–3.3 µs and about 300 bytes a call, several times per task instance. Kept
     * meters are right as long as none is removed from the registry and no meter filter is added after the start,
     * which Swale never does.
     */
    private final Map<List<String>, Meter> meters = new ConcurrentHashMap<>();

    public MicrometerSwaleMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge(RECONCILER_ACTIVE_RUNS, activeRuns);
    }

    @Override
    public void runStarted(String graph) {
        counter(RUNS_STARTED, "Graph runs created", "graph", graph).increment();
    }

    @Override
    public void runSettled(String graph, String state) {
        counter(RUNS_SETTLED, "Graph runs that reached a final state", "graph", graph, "state", state).increment();
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
        histogram(TASK_DURATION, "Duration of one attempt, claim to settle", Duration.ofHours(6), "pool", pool,
                "result", result).record(durationNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void taskTerminated(String pool, String outcome) {
        counter(TASKS_TERMINATED, "Task instances that ended with a node record", "pool", pool, "outcome", outcome)
                .increment();
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
        repair("restored", pass.restored());
    }

    @Override
    public void repairFailed(String pass) {
        counter(REPAIR_FAILURES, "Runs (leases, delayed entries) a repair pass failed on and skipped", "pass", pass)
                .increment();
    }

    @Override
    public void deadLetter(String topic) {
        counter(DEAD_LETTERS, "Records sent to a dead-letter topic", "topic", topic).increment();
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
        counter(name, description, "pool", pool).increment();
    }

    @Override
    public void listenerRetry(String topic, String cause) {
        counter(LISTENER_RETRIES, "Records a listener retried instead of dead-lettering them", "topic", topic, "cause",
                cause).increment();
    }

    @Override
    public void sendLost(String kind, String reason) {
        counter(SENDS_LOST, "Dispatches and events Kafka did not take", "kind", kind, "reason", reason).increment();
    }

    private void repair(String kind, int n) {
        Counter c = counter(RECONCILER_REPAIRS, "What reconciler passes repaired", "kind", kind);
        if (n > 0) {
            c.increment(n);
        }
    }

    private Timer latency(String name, String description, String pool) {
        return histogram(name, description, Duration.ofMinutes(10), "pool", pool);
    }

    /** {@code tags}: names and values, alternating. */
    private Counter counter(String name, String description, String... tags) {
        return (Counter) meters.computeIfAbsent(key(name, tags),
                k -> Counter.builder(name).description(description).tags(tags).register(registry));
    }

    private Timer histogram(String name, String description, Duration maximumExpected, String... tags) {
        return (Timer) meters.computeIfAbsent(key(name, tags), k -> Timer.builder(name).description(description)
                .tags(tags).publishPercentileHistogram().maximumExpectedValue(maximumExpected).register(registry));
    }

    private static List<String> key(String name, String... tags) {
        String[] key = new String[tags.length + 1];
        key[0] = name;
        System.arraycopy(tags, 0, key, 1, tags.length);
        return Arrays.asList(key);
    }
}
