package io.swale.store.redis;

import io.swale.record.RecordCodec;
import io.swale.store.TaskInput;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stored task input document (spec §8.1). The submit script compares a resubmission's input with the
 * stored one byte for byte, so the text is stable: keys sorted at every depth.
 */
final class TaskInputCodec {
    private TaskInputCodec() {}

    static String encode(TaskInput input) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode doc = f.objectNode();
        doc.put("operator", input.operator());
        doc.set("params", input.params());
        ObjectNode inputs = doc.putObject("inputs");
        input.inputs().forEach((up, output) -> inputs.set(up, output == null ? f.nullNode() : output));
        ObjectNode upstreams = doc.putObject("upstreams");
        input.upstreams().forEach((up, u) -> {
            ObjectNode status = upstreams.putObject(up);
            status.put("status", u.status());
            u.error().ifPresent(e -> status.put("error", e));
        });
        input.item().ifPresent(item -> {
            ObjectNode i = doc.putObject("item");
            i.put("index", item.index());
            i.set("value", item.value());
        });
        return RecordCodec.text(RecordCodec.sortedDeep(doc));
    }

    /** Reads a stored input leniently, as the worker always has; empty when it is not a JSON object. */
    static Optional<TaskInput> decode(String json) {
        JsonNode doc;
        try {
            doc = RecordCodec.JSON.readTree(json);
        } catch (JacksonException e) {
            return Optional.empty();
        }
        if (doc == null || !doc.isObject()) {
            return Optional.empty();
        }
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        JsonNode in = doc.path("inputs");
        if (in.isObject()) {
            in.properties().forEach(e -> inputs.put(e.getKey(), e.getValue()));
        }
        Map<String, TaskInput.Upstream> upstreams = new LinkedHashMap<>();
        doc.path("upstreams").properties().forEach(e -> upstreams.put(e.getKey(), new TaskInput.Upstream(
                e.getValue().path("status").asString(""),
                e.getValue().hasNonNull("error") ? Optional.of(e.getValue().get("error").asString()) : Optional.empty())));
        JsonNode item = doc.path("item");
        Optional<TaskInput.Item> mapItem = item.isObject() && item.path("index").isIntegralNumber() && item.has("value")
                ? Optional.of(new TaskInput.Item(item.get("index").longValue(), item.get("value")))
                : Optional.empty();
        return Optional.of(new TaskInput(doc.path("operator").asString(""), doc.path("params"), inputs, upstreams,
                mapItem));
    }
}
