package io.swale.operator;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an operator sees for one attempt.
 *
 * @param params the rendered params
 * @param inputs upstream name → output (null when none) of upstreams with a current succeeded record
 * @param state the state a Continue left, absent on the first step
 * @param environment the worker's environment, to which shell adds the SWALE_* variables
 */
public record AttemptContext(
        String runId,
        String graph,
        String partition,
        String node,
        long attempt,
        long nowMs,
        JsonNode params,
        ObjectNode inputs,
        Optional<JsonNode> state,
        Map<String, String> environment,
        Cancellation cancellation) {

    public AttemptContext {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(inputs, "inputs");
        Objects.requireNonNull(state, "state");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(cancellation, "cancellation");
    }
}
