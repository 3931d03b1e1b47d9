package io.swale.template;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * What references render to for one step of one task instance.
 *
 * @param graph the graph name
 * @param node the node name
 * @param upstreamOutputs upstreams with a current succeeded record → their output (JSON null when none)
 * @param upstreams upstreams with any current record → its status, for {@code run.summary}
 * @param env the environment of the rendering process
 */
public record RenderContext(
        String graph,
        String node,
        String partition,
        String runId,
        Map<String, JsonNode> upstreamOutputs,
        Map<String, UpstreamStatus> upstreams,
        Function<String, Optional<String>> env) {

    public RenderContext {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(runId, "runId");
        upstreamOutputs = Map.copyOf(upstreamOutputs);
        upstreams = Map.copyOf(upstreams);
        Objects.requireNonNull(env, "env");
    }

    /** Reads variables from this process's environment. */
    public static Function<String, Optional<String>> systemEnv() {
        return name -> Optional.ofNullable(System.getenv(name));
    }
}
