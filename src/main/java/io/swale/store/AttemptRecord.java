package io.swale.store;

import io.swale.record.RecordCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One ended attempt of a task instance, as the Redis scripts keep it (capped per instance).
 *
 * @param attempt the attempt number within its step (1 for the first)
 * @param worker the worker that held the claim
 * @param outcome succeeded, failed, cancelled, retry, continue, lease_expired or released
 */
public record AttemptRecord(long attempt, long step, Optional<String> worker, long startedMs, long endedMs,
        String outcome, Optional<String> error) {

    /** Outcomes that did not use an attempt of the step's budget. */
    public boolean counted() {
        return !"released".equals(outcome);
    }

    /** Parses the stored JSON array; a malformed value reads as no history. */
    public static List<AttemptRecord> parseAll(String json) {
        List<AttemptRecord> out = new ArrayList<>();
        if (json == null || json.isEmpty()) {
            return out;
        }
        JsonNode list;
        try {
            list = RecordCodec.JSON.readTree(json);
        } catch (JacksonException e) {
            return out;
        }
        if (list == null || !list.isArray()) {
            return out;
        }
        for (JsonNode e : list) {
            out.add(new AttemptRecord(e.path("attempt").asLong(), e.path("step").asLong(),
                    text(e, "worker"), e.path("started_ms").asLong(), e.path("ended_ms").asLong(),
                    e.path("outcome").asString(""), text(e, "error")));
        }
        return out;
    }

    public ObjectNode toJson() {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        o.put("attempt", attempt);
        o.put("step", step);
        worker.ifPresent(w -> o.put("worker", w));
        o.put("started_ms", startedMs);
        o.put("ended_ms", endedMs);
        o.put("outcome", outcome);
        error.ifPresent(e -> o.put("error", e));
        return o;
    }

    public static ArrayNode toJson(List<AttemptRecord> all) {
        ArrayNode a = RecordCodec.JSON.createArrayNode();
        all.forEach(r -> a.add(r.toJson()));
        return a;
    }

    private static Optional<String> text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || !v.isString() ? Optional.empty() : Optional.of(v.asString());
    }
}
