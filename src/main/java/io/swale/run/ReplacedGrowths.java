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

/**
 * A rerun whose expectations take declared growths out of a run's graph (their declaring records are no longer
 * current, docs/dynamic-graphs.md §8.5) cancels the grown nodes' active instances: they are no longer part of
 * the run, so nothing would wait for them.
 */
final class ReplacedGrowths {
    private ReplacedGrowths() {}

    static void cancel(RunView view, Graph before, Graph after, Map<String, NodeRecord> records, TaskStore tasks,
            SwaleMetrics metrics, Clock clock) {
        for (Node n : before.nodes()) {
            if (after.hasNode(n.name()) || n.isMapped()) {
                continue;
            }
            Optional<String> runId = GraphRuns.unrecordedRunId(view.key(), view.run(), n.name(), records.get(n.name()));
            if (runId.isEmpty() || !GraphRuns.isActive(view, runId.get())) {
                continue;
            }
            TaskInstance instance = view.instances().get(runId.get());
            NodeRecord record = new NodeRecord(NodeStatus.CANCELLED, runId.get(), view.run().definition(),
                    instance.rerun(), clock.millis(), Optional.empty(), false, Optional.of("its growth was replaced by"
                            + " a rerun of `" + before.grownBy(n.name()).orElse("?") + "`"));
            if (tasks.cancel(view.key(), RunRecords.field(n), record) == TaskStore.Cancel.CANCELLED) {
                metrics.taskTerminated(instance.pool(), NodeStatus.CANCELLED.wireName());
            }
        }
    }
}
