package io.swale.store;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The task input of spec §8.1: what a worker needs to run one instance, fixed at submission. A resubmission
 * of the same run id must bring an equal input (else the store answers a mismatch).
 *
 * @param params the node's parameters, templates not yet rendered
 * @param inputs the outputs of the succeeded upstreams by node name (a JSON null when one had none)
 * @param upstreams the terminal status of every recorded upstream by node name
 */
public record TaskInput(String operator, JsonNode params, Map<String, JsonNode> inputs,
        Map<String, Upstream> upstreams) {
    public TaskInput {
        Objects.requireNonNull(operator, "operator");
        params = params == null ? JsonNodeFactory.instance.nullNode() : params;
        inputs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(inputs));
        upstreams = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(upstreams));
    }

    /**
     * One upstream as the input saw it.
     *
     * @param status the node status wire name, kept as text: the worker only hands it to templates
     */
    public record Upstream(String status, Optional<String> error) {
        public Upstream {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(error, "error");
        }
    }
}
