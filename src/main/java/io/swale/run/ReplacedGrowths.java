package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.ItemName;
import io.swale.graph.Node;
import io.swale.record.NodeRecord;
import io.swale.store.RunView;
import java.util.List;
import java.util.OptionalLong;
import java.util.Map;
import java.util.SortedMap;

/**
 * A rerun whose expectations take declared growths out of a run's graph (their declaring records are no longer
 * current, docs/dynamic-graphs.md §8.5) cancels the grown nodes' active instances: they are no longer part of
 * the run, so nothing would wait for them. A grown mapped node has every active item cancelled, and a cancelled
 * instance of a node with leases leaves the lease queues it waits in, as a run cancel does.
 */
final class ReplacedGrowths {
    private ReplacedGrowths() {}

    /**
     * Adds to {@code expected} a new record of each taken-out node that has run or runs (a new generation of a
     * mapped one, beyond every item's rerun): its record, or the cancelled one its cancel writes, must not stand
     * for that node should a new growth declare it again, which then runs it anew (docs/dynamic-graphs.md §8.5),
     * whatever its trigger rule and wherever its `after` attaches it.
     */
    static void expect(RunView view, Graph before, Graph after, Map<String, NodeRecord> records,
            SortedMap<String, Long> expected) {
        for (Node n : takenOut(before, after)) {
            NodeRecord record = records.get(n.name());
            if (n.isMapped()) {
                OptionalLong items = MappedNodes.lastItemRerun(view, n.name());
                if (items.isEmpty() && record == null) {
                    continue;
                }
                long next = Math.max(items.orElse(0), record == null ? 0 : record.rerun()) + 1;
                expected.merge(ItemName.floorKey(n.name()), next, Math::max);
                expected.merge(n.name(), next, Math::max);
                continue;
            }
            long next = record == null ? -1 : record.rerun() + 1;
            next = Math.max(next, RunRecords.unrecordedRunId(view.key(), view.run(), n.name(), record)
                    .filter(runId -> RunRecords.isActive(view, runId))
                    .map(runId -> view.instances().get(runId).rerun() + 1).orElse(-1L));
            if (next >= 0) {
                expected.merge(n.name(), next, Math::max);
            }
        }
    }

    static void cancel(RunView view, Graph before, Graph after, Map<String, NodeRecord> records,
            RunCancellation cancellation) {
        for (Node n : takenOut(before, after)) {
            cancellation.cancelNode(view, n, records, reason(before, n));
        }
    }

    private static List<Node> takenOut(Graph before, Graph after) {
        return before.nodes().stream().filter(n -> !after.hasNode(n.name())).toList();
    }

    private static String reason(Graph before, Node n) {
        return "its growth was replaced by a rerun of `" + before.grownBy(n.name()).orElse("?") + "`";
    }
}
