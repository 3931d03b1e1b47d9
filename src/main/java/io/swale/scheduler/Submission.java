package io.swale.scheduler;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.record.NodeRecord;
import io.swale.store.InstanceCodec;
import io.swale.store.RunKey;
import io.swale.store.TaskStore;
import java.util.Map;
import java.util.OptionalLong;
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

    public Submission(TaskStore tasks, Dispatcher dispatcher, PoolCatalog pools) {
        this.tasks = tasks;
        this.dispatcher = dispatcher;
        this.pools = pools;
    }

    public Result submit(Graph graph, String definition, Partition partition, Node node, long rerun,
            Map<String, NodeRecord> current) {
        return submit(graph, definition, partition, node, rerun, current, OptionalLong.empty());
    }

    /** As above, recording when the scheduler found the node ready (epoch µs) in the instance. */
    public Result submit(Graph graph, String definition, Partition partition, Node node, long rerun,
            Map<String, NodeRecord> current, OptionalLong readyUs) {
        if (!pools.isConfigured(node.pool())) {
            throw new SwaleException.UnknownPool(node.name(), node.pool());
        }
        TaskIdentity identity = new TaskIdentity(graph.name(), partition, node.name(), node.produces(), definition, rerun);
        RunKey key = identity.runKey();
        String runId = identity.runId();
        String input = TaskInputs.text(TaskInputs.of(graph, node, current));
        String instance = InstanceCodec.pending(node.name(), node.produces(), definition, rerun, node.pool(),
                node.maxAttempts(), readyUs);
        return switch (tasks.submit(key, runId, instance, input)) {
            case NEW -> {
                dispatcher.dispatch(node.pool(), identity);
                log.debug("submitted graph={} partition={} node={} runId={}", graph.name(), partition, node.name(), runId);
                yield new Result(runId, true);
            }
            case EXISTS -> new Result(runId, false);
            case MISMATCH -> throw new SwaleException.InputMismatch(runId);
        };
    }
}
