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
 * @param item the item and its index, in an item of a mapped node
 */
public record RenderContext(
        String graph,
        String node,
        String partition,
        String runId,
        Map<String, JsonNode> upstreamOutputs,
        Map<String, UpstreamStatus> upstreams,
        Function<String, Optional<String>> env,
        Optional<MapItem> item) {

    /** One item of a mapped node: its position in the array, from 0, and its value. */
    public record MapItem(long index, JsonNode value) {
        public MapItem {
            Objects.requireNonNull(value, "value");
        }
    }

    /** The context of a node that is not mapped. */
    public RenderContext(String graph, String node, String partition, String runId,
            Map<String, JsonNode> upstreamOutputs, Map<String, UpstreamStatus> upstreams,
            Function<String, Optional<String>> env) {
        this(graph, node, partition, runId, upstreamOutputs, upstreams, env, Optional.empty());
    }

    public RenderContext {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(runId, "runId");
        upstreamOutputs = Map.copyOf(upstreamOutputs);
        upstreams = Map.copyOf(upstreams);
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(item, "item");
    }

    /** Reads variables from this process's environment. */
    public static Function<String, Optional<String>> systemEnv() {
        return name -> Optional.ofNullable(System.getenv(name));
    }
}
