package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.record.NodeRecord;
import io.swale.store.TaskInput;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** The task input document of spec §8.1, built from the current records of a node's upstreams. */
public final class TaskInputs {
    private TaskInputs() {}

    public static TaskInput of(Graph graph, Node node, Map<String, NodeRecord> current) {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        Map<String, TaskInput.Upstream> upstreams = new LinkedHashMap<>();
        for (String up : graph.upstreams(node.name())) {
            NodeRecord r = current.get(up);
            if (r == null) {
                continue;
            }
            if (r.succeeded()) {
                inputs.put(up, r.output().orElse(JsonNodeFactory.instance.nullNode()));
            }
            upstreams.put(up, new TaskInput.Upstream(r.status().wireName(), r.error()));
        }
        return new TaskInput(node.operator(), node.params(), inputs, upstreams);
    }
}
