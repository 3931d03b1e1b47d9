package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.record.NodeRecord;
import io.swale.record.RecordCodec;
import io.swale.store.NodeRecordField;
import io.swale.store.RunView;
import java.nio.charset.StandardCharsets;
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

    public static String field(String node, Optional<String> asset) {
        return NodeRecordField.of(node, asset);
    }

    public static String field(Node node) {
        return field(node.name(), node.produces());
    }

    /** The node records of the run by node name, for the nodes of {@code graph}. */
    public static Map<String, NodeRecord> byNode(Graph graph, RunView view) {
        Map<String, NodeRecord> out = new LinkedHashMap<>();
        for (Node n : graph.nodes()) {
            String json = view.nodeRecords().get(field(n));
            if (json != null) {
                out.put(n.name(), RecordCodec.decodeNode(view.key().id() + "#" + field(n),
                        json.getBytes(StandardCharsets.UTF_8)));
            }
        }
        return out;
    }
}
