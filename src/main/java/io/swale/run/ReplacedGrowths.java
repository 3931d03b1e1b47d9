package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.record.NodeRecord;
import io.swale.store.RunView;
import java.util.Map;

/**
 * A rerun whose expectations take declared growths out of a run's graph (their declaring records are no longer
 * current, docs/dynamic-graphs.md §8.5) cancels the grown nodes' active instances: they are no longer part of
 * the run, so nothing would wait for them. A grown mapped node has every active item cancelled, and a cancelled
 * instance of a node with leases leaves the lease queues it waits in, as a run cancel does.
 */
final class ReplacedGrowths {
    private ReplacedGrowths() {}

    static void cancel(RunView view, Graph before, Graph after, Map<String, NodeRecord> records,
            RunCancellation cancellation) {
        for (Node n : before.nodes()) {
            if (!after.hasNode(n.name())) {
                cancellation.cancelNode(view, n, records, reason(before, n));
            }
        }
    }

    private static String reason(Graph before, Node n) {
        return "its growth was replaced by a rerun of `" + before.grownBy(n.name()).orElse("?") + "`";
    }
}
