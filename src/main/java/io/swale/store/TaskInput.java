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
 * @param item the item of an instance of a mapped node, with its index
 */
public record TaskInput(String operator, JsonNode params, Map<String, JsonNode> inputs,
        Map<String, Upstream> upstreams, Optional<Item> item) {

    public TaskInput(String operator, JsonNode params, Map<String, JsonNode> inputs, Map<String, Upstream> upstreams) {
        this(operator, params, inputs, upstreams, Optional.empty());
    }

    /** The same input for one item of a mapped node. */
    public TaskInput withItem(long index, JsonNode value) {
        return new TaskInput(operator, params, inputs, upstreams, Optional.of(new Item(index, value)));
    }

    /** One item of a mapped node: its position in the array (from 0) and its value. */
    public record Item(long index, JsonNode value) {
        public Item {
            Objects.requireNonNull(value, "value");
        }
    }

    public TaskInput {
        Objects.requireNonNull(item, "item");
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
