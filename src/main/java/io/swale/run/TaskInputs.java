package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.record.NodeRecord;
import io.swale.record.RecordCodec;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The task input document of spec §8.1, built from the current records of a node's upstreams. */
public final class TaskInputs {
    private TaskInputs() {}

    public static ObjectNode of(Graph graph, Node node, Map<String, NodeRecord> current) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode doc = f.objectNode();
        doc.put("operator", node.operator());
        doc.set("params", node.params());
        ObjectNode inputs = doc.putObject("inputs");
        ObjectNode upstreams = doc.putObject("upstreams");
        for (String up : graph.upstreams(node.name())) {
            NodeRecord r = current.get(up);
            if (r == null) {
                continue;
            }
            if (r.succeeded()) {
                inputs.set(up, r.output().orElse(f.nullNode()));
            }
            ObjectNode status = upstreams.putObject(up);
            status.put("status", r.status().wireName());
            r.error().ifPresent(e -> status.put("error", e));
        }
        return doc;
    }

    /** Stable bytes: keys sorted at every depth, so a resubmission compares equal. */
    public static String text(ObjectNode input) {
        return RecordCodec.text(RecordCodec.sortedDeep(input));
    }
}
