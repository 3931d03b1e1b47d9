package io.swale.task;

import io.swale.logging.LogContext;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a repair pass does when one run fails it (an undecodable record, a definition that does not render, a
 * script error): logs it with the run, counts it, and keeps it in the run view, so the pass can go on to the
 * next run and an operator still sees which run is stuck and why.
 */
public final class RepairFailures {
    private static final Logger log = LoggerFactory.getLogger(RepairFailures.class);

    private final RunStore runs;
    private final SwaleMetrics metrics;
    private final Clock clock;
    private final Predicate<Throwable> outage;

    /** {@code outage} tells a store or broker that did not answer (the adapters' exceptions) from a bad run. */
    public RepairFailures(RunStore runs, SwaleMetrics metrics, Clock clock, Predicate<Throwable> outage) {
        this.runs = runs;
        this.metrics = metrics;
        this.clock = clock;
        this.outage = outage;
    }

    /**
     * Throws {@code e} again when Redis or Kafka did not answer: that is no fault of the run, and every run
     * after it would fail the same way, so the pass ends and the next one starts over.
     */
    public void rethrowOutage(RuntimeException e) {
        if (outage.test(e)) {
            throw e;
        }
    }

    /** Records the failure of {@code pass} on one run (on one of its instances when {@code runId} is given). */
    public void failed(String pass, RunKey key, Optional<String> node, Optional<String> runId, Exception e) {
        String message = describe(e);
        try (LogContext ignored = LogContext.of(key.graph(), key.partition().key(), node.orElse(null),
                runId.orElse(null))) {
            log.warn("{} pass skipped a run graph={} partition={} runId={} error={}", pass, key.graph(),
                    key.partition(), runId.orElse("-"), message);
            log.debug("{} pass failure graph={} partition={}", pass, key.graph(), key.partition(), e);
        }
        metrics.repairFailed(pass);
        try {
            runs.putRepairError(key, new RunStore.RepairError(clock.millis(), pass,
                    runId.map(id -> id + ": ").orElse("") + message));
        } catch (RuntimeException stored) {
            // the store failing too is the pass's next failure, not this run's: the log and the count remain
            log.warn("could not keep the repair error graph={} partition={} error={}", key.graph(), key.partition(),
                    stored.toString());
        }
    }

    /** As above, for a run whose record itself cannot be read. */
    public void unreadable(String pass, RunKey key, String error) {
        failed(pass, key, Optional.empty(), Optional.empty(), new IllegalStateException(error));
    }

    static String describe(Exception e) {
        String m = e.getMessage();
        String text = m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
        return text.length() > 500 ? text.substring(0, 500) + "…" : text;
    }
}
