package io.swale.scheduler;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.record.NodeRecord;
import io.swale.store.InstanceCodec;
import io.swale.store.RunKey;
import io.swale.store.TaskStore;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a task instance in Redis (idempotent on its run id) and, when it is new, dispatches it. A crash
 * between the two leaves a pending instance that the reconciler dispatches again.
 */
public final class Submission {
    private static final Logger log = LoggerFactory.getLogger(Submission.class);

    /** The run id, and whether this call created the instance. */
    public record Result(String runId, boolean isNew) {}

    private final TaskStore tasks;
    private final Dispatcher dispatcher;
    private final PoolCatalog pools;
    private final SwaleMetrics metrics;
    private final Clock clock;

    public Submission(TaskStore tasks, Dispatcher dispatcher, PoolCatalog pools) {
        this(tasks, dispatcher, pools, SwaleMetrics.NONE, Clock.systemUTC());
    }

    public Submission(TaskStore tasks, Dispatcher dispatcher, PoolCatalog pools, SwaleMetrics metrics, Clock clock) {
        this.tasks = tasks;
        this.dispatcher = dispatcher;
        this.pools = pools;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * When the node became ready: the latest termination among its upstreams' current records, or now for a
     * root or a node submitted by request.
     */
    private long readyAt(Map<String, NodeRecord> current, Graph graph, Node node) {
        long at = -1;
        for (String up : graph.upstreams(node.name())) {
            NodeRecord r = current.get(up);
            if (r != null) {
                at = Math.max(at, r.terminatedAtMs());
            }
        }
        long now = clock.millis();
        return at < 0 || at > now ? now : at;
    }

    public Result submit(Graph graph, String definition, Partition partition, Node node, long rerun,
            Map<String, NodeRecord> current) {
        return submit(graph, definition, partition, node, rerun, current, readyAt(current, graph, node),
                id -> Optional.empty());
    }

    /**
     * Submits; {@code request} gives, for the run id, a request record that commits atomically with the
     * instance and only if the instance is new (a Submitted rerun, spec §10).
     */
    public Result submit(Graph graph, String definition, Partition partition, Node node, long rerun,
            Map<String, NodeRecord> current, Function<String, Optional<TaskStore.RequestWrite>> request) {
        return submit(graph, definition, partition, node, rerun, current, clock.millis(), request);
    }

    private Result submit(Graph graph, String definition, Partition partition, Node node, long rerun,
            Map<String, NodeRecord> current, long readyAt, Function<String, Optional<TaskStore.RequestWrite>> request) {
        if (!pools.isConfigured(node.pool())) {
            throw new SwaleException.UnknownPool(node.name(), node.pool());
        }
        TaskIdentity identity = new TaskIdentity(graph.name(), partition, node.name(), node.produces(), definition, rerun);
        RunKey key = identity.runKey();
        String runId = identity.runId();
        String input = TaskInputs.text(TaskInputs.of(graph, node, current));
        String instance = InstanceCodec.pending(node.name(), node.produces(), definition, rerun, node.pool(),
                node.maxAttempts(), readyAt);
        return switch (tasks.submit(key, runId, instance, input, request.apply(runId))) {
            case NEW -> {
                metrics.submitted(node.pool(), Math.max(0, clock.millis() - readyAt));
                dispatcher.dispatch(node.pool(), identity);
                log.debug("submitted graph={} partition={} node={} runId={}", graph.name(), partition, node.name(), runId);
                yield new Result(runId, true);
            }
            case EXISTS -> new Result(runId, false);
            case MISMATCH -> throw new SwaleException.InputMismatch(runId);
        };
    }
}
