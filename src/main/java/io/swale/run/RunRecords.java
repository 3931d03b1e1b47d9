package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Maps node records between their stored identity and node names. Asset records are keyed by asset (so a
 * renamed node that keeps its asset keeps its record); task records by node name. Both live under the
 * run's hash tag. Also which instance a node's record leaves to run, and whether the view shows it active.
 */
public final class RunRecords {
    private RunRecords() {}

    public static RecordField field(String node, Optional<String> asset) {
        return new RecordField(node, asset);
    }

    public static RecordField field(Node node) {
        return field(node.name(), node.produces());
    }

    /** The node records of the run by node name, for the nodes of {@code graph}. */
    public static Map<String, NodeRecord> byNode(Graph graph, RunView view) {
        Map<String, NodeRecord> out = new LinkedHashMap<>();
        for (Node n : graph.nodes()) {
            NodeRecord r = view.nodeRecords().get(field(n).key());
            if (r != null) {
                out.put(n.name(), r);
            }
        }
        return out;
    }

    /** No record → r0; a current succeeded record → none; otherwise the next rerun (spec §7.10). */
    static Optional<String> unrecordedRunId(RunKey key, GraphRunRecord run, String node, NodeRecord record) {
        if (record == null) {
            return Optional.of(key.runId(node, 0));
        }
        if (record.succeeded() && run.isCurrent(node, record)) {
            return Optional.empty();
        }
        return Optional.of(key.runId(node, record.rerun() + 1));
    }

    /** Whether the view holds the instance {@code runId} and it is still active. */
    static boolean isActive(RunView view, String runId) {
        TaskInstance i = view.instances().get(runId);
        return i != null && i.status().isActive();
    }
}
