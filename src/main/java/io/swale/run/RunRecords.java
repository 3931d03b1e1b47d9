package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.record.NodeRecord;
import io.swale.store.RecordField;
import io.swale.store.RunView;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Maps node records between their stored identity and node names. Asset records are keyed by asset (so a
 * renamed node that keeps its asset keeps its record); task records by node name. Both live under the
 * run's hash tag.
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
}
