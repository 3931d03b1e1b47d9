package io.swale.store.redis;

import static io.swale.store.redis.RecordFields.requiredLong;
import static io.swale.store.redis.RecordFields.requiredText;

import io.swale.record.GraphRunRecord;
import io.swale.record.RecordCodec;
import io.swale.record.RecordException;
import io.swale.record.RunState;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The graph run record as stored, keys in the order the spec lists them so the text is stable: a
 * compare-and-put compares it byte for byte. Public for the bench, which reads Redis directly.
 */
public final class RunRecordCodec {
    private RunRecordCodec() {}

    public static String encode(GraphRunRecord run) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("definition", run.definition());
        o.put("requested_at_ms", run.requestedAtMs());
        o.put("state", run.state().wireName());
        run.settledAtMs().ifPresent(t -> o.put("settled_at_ms", t));
        if (!run.expectedReruns().isEmpty()) {
            ObjectNode e = o.putObject("expected_reruns");
            run.expectedReruns().forEach(e::put);
        }
        return RecordCodec.text(o);
    }

    /** @param key names the record in a {@link RecordException} */
    public static GraphRunRecord decode(String key, String text) {
        JsonNode o = RecordCodec.parseObject(key, text.getBytes(StandardCharsets.UTF_8));
        String definition = requiredText(key, o, "definition");
        long requested = requiredLong(key, o, "requested_at_ms");
        String stateText = requiredText(key, o, "state");
        RunState state = RunState.fromWireName(stateText)
                .orElseThrow(() -> new RecordException(key, "unknown state `" + stateText + "`"));
        Optional<Long> settled = o.has("settled_at_ms")
                ? Optional.of(requiredLong(key, o, "settled_at_ms")) : Optional.empty();
        TreeMap<String, Long> expected = new TreeMap<>();
        JsonNode e = o.get("expected_reruns");
        if (e != null) {
            if (!e.isObject()) {
                throw new RecordException(key, "`expected_reruns` is not an object");
            }
            for (Map.Entry<String, JsonNode> entry : e.properties()) {
                if (!entry.getValue().canConvertToLong() || !entry.getValue().isIntegralNumber()) {
                    throw new RecordException(key, "`expected_reruns." + entry.getKey() + "` is not a count");
                }
                expected.put(entry.getKey(), entry.getValue().asLong());
            }
        }
        return new GraphRunRecord(definition, requested, state, settled, expected);
    }
}
