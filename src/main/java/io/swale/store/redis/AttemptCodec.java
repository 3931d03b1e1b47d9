package io.swale.store.redis;

import io.swale.record.RecordCodec;
import io.swale.store.AttemptRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** The attempt history the Lua scripts append to per instance: a JSON array of attempt objects. */
final class AttemptCodec {
    private AttemptCodec() {}

    /** Parses the stored JSON array; a malformed value reads as no history. */
    static List<AttemptRecord> parseAll(String json) {
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

    private static Optional<String> text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || !v.isString() ? Optional.empty() : Optional.of(v.asString());
    }
}
