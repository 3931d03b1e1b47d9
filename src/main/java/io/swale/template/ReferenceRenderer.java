package io.swale.template;

import io.swale.record.RecordCodec;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Turns one reference into the text it stands for in a given context. */
final class ReferenceRenderer {
    private final RenderContext ctx;

    ReferenceRenderer(RenderContext ctx) {
        this.ctx = ctx;
    }

    String render(Reference reference) {
        return switch (reference) {
            case Reference.PartitionKey p -> ctx.partition();
            case Reference.RunId r -> ctx.runId();
            case Reference.RunSummary s -> RecordCodec.text(RecordCodec.sortedDeep(summary()));
            case Reference.Env e -> ctx.env().apply(e.name()).orElseThrow(
                    () -> new RenderException("environment variable `" + e.name() + "` is not set"));
            case Reference.Upstream u -> insert(valueAt(u));
            case Reference.ShellQuoted q -> Reference.ShellQuoted.quote(render(q.reference()));
            case Reference.Item i -> insert(itemAt(i));
            case Reference.MapIndex m -> Long.toString(ctx.item().orElseThrow(ReferenceRenderer::notMapped).index());
        };
    }

    /** Strings go in as they are; any other JSON as compact text with keys sorted at every depth, decimals plain. */
    static String insert(JsonNode value) {
        return value.isString() ? value.asString() : RecordCodec.text(PlainNumbers.of(RecordCodec.sortedDeep(value)));
    }

    private ObjectNode summary() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("graph", ctx.graph());
        o.put("node", ctx.node());
        o.put("partition", ctx.partition());
        ObjectNode ups = o.putObject("upstreams");
        for (Map.Entry<String, UpstreamStatus> e : new TreeMap<>(ctx.upstreams()).entrySet()) {
            ObjectNode s = ups.putObject(e.getKey());
            s.put("status", e.getValue().status());
            e.getValue().error().ifPresent(err -> s.put("error", err));
        }
        return o;
    }

    private static RenderException notMapped() {
        return new RenderException("`item` and `map.index` are set only in the items of a mapped node");
    }

    private JsonNode itemAt(Reference.Item i) {
        JsonNode value = ctx.item().orElseThrow(ReferenceRenderer::notMapped).value();
        for (String segment : i.path()) {
            JsonNode next = child(value, segment);
            if (next == null) {
                throw new RenderException("path `" + i.dottedPath() + "` of the item is missing or goes into a "
                        + "non-container (at segment `" + segment + "`)");
            }
            value = next;
        }
        return value;
    }

    private JsonNode valueAt(Reference.Upstream u) {
        JsonNode value = ctx.upstreamOutputs().get(u.node());
        if (value == null) {
            throw new RenderException("upstream `" + u.node() + "` has no current succeeded record");
        }
        for (String segment : u.path()) {
            JsonNode next = child(value, segment);
            if (next == null) {
                throw new RenderException("path `" + u.dottedPath() + "` of upstream `" + u.node()
                        + "` is missing or goes into a non-container (at segment `" + segment + "`)");
            }
            value = next;
        }
        return value;
    }

    private static JsonNode child(JsonNode container, String segment) {
        if (container.isObject()) {
            return container.get(segment);
        }
        if (container.isArray() && segment.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return container.get(Integer.parseInt(segment));
            } catch (NumberFormatException tooLarge) {
                return null;
            }
        }
        return null;
    }
}
