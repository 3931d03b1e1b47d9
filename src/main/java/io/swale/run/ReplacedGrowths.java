package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.task.SwaleMetrics;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A rerun whose expectations take declared growths out of a run's graph (their declaring records are no longer
 * current, docs/dynamic-graphs.md §8.5) cancels the grown nodes' active instances: they are no longer part of
 * the run, so nothing would wait for them. A grown mapped node has every active item cancelled, and a cancelled
 * instance of a node with leases leaves the lease queues it waits in, as a run cancel does.
 */
final class ReplacedGrowths {
    private ReplacedGrowths() {}

    static void cancel(RunView view, Graph before, Graph after, Map<String, NodeRecord> records, TaskStore tasks,
            SwaleMetrics metrics, Clock clock, MappedNodes mapped, Consumer<String> leftLeaseQueues) {
        for (Node n : before.nodes()) {
            if (after.hasNode(n.name())) {
                continue;
            }
            // a node with leases may be waiting in their queues: each cancelled instance leaves them at once
            Consumer<String> left = n.leases().isEmpty() ? runId -> { } : leftLeaseQueues;
            if (n.isMapped()) {
                mapped.cancelItems(view, n.name(), reason(before, n), left);
                continue;
            }
            Optional<String> runId = GraphRuns.unrecordedRunId(view.key(), view.run(), n.name(), records.get(n.name()));
            if (runId.isEmpty() || !GraphRuns.isActive(view, runId.get())) {
                continue;
            }
            TaskInstance instance = view.instances().get(runId.get());
            NodeRecord record = new NodeRecord(NodeStatus.CANCELLED, runId.get(), view.run().definition(),
                    instance.rerun(), clock.millis(), Optional.empty(), false, Optional.of(reason(before, n)));
            if (tasks.cancel(view.key(), RunRecords.field(n), record) == TaskStore.Cancel.CANCELLED) {
                metrics.taskTerminated(instance.pool(), NodeStatus.CANCELLED.wireName());
                left.accept(runId.get());
            }
        }
    }

    private static String reason(Graph before, Node n) {
        return "its growth was replaced by a rerun of `" + before.grownBy(n.name()).orElse("?") + "`";
    }
}
