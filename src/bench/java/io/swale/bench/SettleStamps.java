package io.swale.bench;

import io.swale.task.ReconcilePass;
import io.swale.task.SwaleMetrics;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * When each graph's last run settled, in epoch µs, as the scheduler in this process tells its metrics once the
 * settle committed. A run record keeps its request and settle times in ms, which puts up to a millisecond into a
 * chain's makespan (an edge is about one): a chain run one at a time is timed from the bench's own request to this
 * stamp instead. Only a settle in this process is seen; a run settled elsewhere keeps its record's ms.
 */
final class SettleStamps {
    private final Map<String, Long> lastSettledUs = new ConcurrentHashMap<>();

    /** Wraps the service's metrics so that each settle is stamped; added to the context before its refresh. */
    BeanPostProcessor recorder() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                return bean instanceof SwaleMetrics metrics ? stamping(metrics) : bean;
            }
        };
    }

    private SwaleMetrics stamping(SwaleMetrics metrics) {
        return new Stamping(metrics);
    }

    /** The service's metrics, each call passed on as it is (no reflection on the hot path), a settle stamped first. */
    private final class Stamping implements SwaleMetrics {
        private final SwaleMetrics metrics;

        Stamping(SwaleMetrics metrics) {
            this.metrics = metrics;
        }

        @Override
        public void runSettled(String graph, String state) {
            lastSettledUs.put(graph, nowUs());
            metrics.runSettled(graph, state);
        }

        @Override
        public void runStarted(String graph) {
            metrics.runStarted(graph);
        }

        @Override
        public void submitted(String pool, long readyToSubmittedMs) {
            metrics.submitted(pool, readyToSubmittedMs);
        }

        @Override
        public void started(String pool, long submittedToStartedMs) {
            metrics.started(pool, submittedToStartedMs);
        }

        @Override
        public void attemptFinished(String pool, String result, long durationNanos) {
            metrics.attemptFinished(pool, result, durationNanos);
        }

        @Override
        public void taskTerminated(String pool, String outcome) {
            metrics.taskTerminated(pool, outcome);
        }

        @Override
        public void reconcilerPass(long durationNanos, ReconcilePass pass) {
            metrics.reconcilerPass(durationNanos, pass);
        }

        @Override
        public void repairFailed(String pass) {
            metrics.repairFailed(pass);
        }

        @Override
        public void deadLetter(String topic) {
            metrics.deadLetter(topic);
        }

        @Override
        public void heartbeatFailed(String pool) {
            metrics.heartbeatFailed(pool);
        }

        @Override
        public void leaseLost(String pool) {
            metrics.leaseLost(pool);
        }

        @Override
        public void settleRetried(String pool) {
            metrics.settleRetried(pool);
        }

        @Override
        public void settleAbandoned(String pool) {
            metrics.settleAbandoned(pool);
        }

        @Override
        public void listenerRetry(String topic, String cause) {
            metrics.listenerRetry(topic, cause);
        }

        @Override
        public void sendLost(String kind, String reason) {
            metrics.sendLost(kind, reason);
        }
    }

    /** When the graph's last run settled, if that was at or after {@code fromUs}. */
    Optional<Long> settledSince(String graph, long fromUs) {
        return Optional.ofNullable(lastSettledUs.get(graph)).filter(us -> us >= fromUs);
    }

    /**
     * As {@link #settledSince}, waiting up to {@code waitMs} for the report: a reader of the store may see the settled
     * record before the scheduler, which hears the commit's reply after Redis applied it, reports the settle. The
     * wait is the bench's; the stamp is the scheduler's.
     */
    Optional<Long> awaitSettledSince(String graph, long fromUs, long waitMs) {
        long deadline = System.nanoTime() + waitMs * 1_000_000;
        Optional<Long> settled = settledSince(graph, fromUs);
        while (settled.isEmpty() && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(50_000);
            settled = settledSince(graph, fromUs);
        }
        return settled;
    }

    /** Now in epoch µs, the unit of the instances' stamps. */
    static long nowUs() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
