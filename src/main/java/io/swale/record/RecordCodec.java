package io.swale.record;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON form of the records, keys in the order the spec lists them so stored bytes are stable, and
 * strict reading: a value of the wrong shape is a {@link RecordException} naming the key.
 */
public final class RecordCodec {
    /** Node records are capped at 256 KiB; beyond that the output is dropped. */
    public static final int MAX_RECORD_BYTES = 262_144;

    public static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RecordCodec() {}

    public static byte[] encode(GraphRunRecord run) {
        ObjectNode o = NODES.objectNode();
        o.put("definition", run.definition());
        o.put("requested_at_ms", run.requestedAtMs());
        o.put("state", run.state().wireName());
        run.settledAtMs().ifPresent(t -> o.put("settled_at_ms", t));
        if (!run.expectedReruns().isEmpty()) {
            ObjectNode e = o.putObject("expected_reruns");
            run.expectedReruns().forEach(e::put);
        }
        return bytes(o);
    }

    public static GraphRunRecord decodeRun(String key, byte[] value) {
        JsonNode o = parseObject(key, value);
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

    public static byte[] encode(GraphRecord graph) {
        ObjectNode o = NODES.objectNode();
        o.put("definition", graph.definition());
        o.put("adopted_at_ms", graph.adoptedAtMs());
        return bytes(o);
    }

    public static GraphRecord decodeGraph(String key, byte[] value) {
        JsonNode o = parseObject(key, value);
        return new GraphRecord(requiredText(key, o, "definition"), requiredLong(key, o, "adopted_at_ms"));
    }

    /** Encodes a node record, dropping the output (and marking it omitted) when it would exceed 256 KiB. */
    public static byte[] encode(NodeRecord record) {
        byte[] full = bytes(toJson(record));
        if (full.length <= MAX_RECORD_BYTES || record.output().isEmpty()) {
            return full;
        }
        return bytes(toJson(new NodeRecord(record.status(), record.runId(), record.definition(), record.rerun(),
                record.terminatedAtMs(), Optional.empty(), true, record.error())));
    }

    public static ObjectNode toJson(NodeRecord r) {
        ObjectNode o = NODES.objectNode();
        o.put("status", r.status().wireName());
        o.put("run_id", r.runId());
        o.put("definition", r.definition());
        o.put("rerun", r.rerun());
        o.put("terminated_at_ms", r.terminatedAtMs());
        r.output().ifPresent(v -> o.set("output", sortedDeep(v)));
        if (r.outputOmitted()) {
            o.put("output_omitted", true);
        }
        r.error().ifPresent(err -> o.put("error", err));
        return o;
    }

    public static NodeRecord decodeNode(String key, byte[] value) {
        JsonNode o = parseObject(key, value);
        String statusText = requiredText(key, o, "status");
        NodeStatus status = NodeStatus.fromWireName(statusText)
                .orElseThrow(() -> new RecordException(key, "unknown status `" + statusText + "`"));
        JsonNode omitted = o.get("output_omitted");
        if (omitted != null && !omitted.isBoolean()) {
            throw new RecordException(key, "`output_omitted` is not a boolean");
        }
        JsonNode error = o.get("error");
        if (error != null && !error.isString()) {
            throw new RecordException(key, "`error` is not a string");
        }
        return new NodeRecord(status, requiredText(key, o, "run_id"), requiredText(key, o, "definition"),
                requiredLong(key, o, "rerun"), requiredLong(key, o, "terminated_at_ms"),
                Optional.ofNullable(o.get("output")), omitted != null && omitted.asBoolean(),
                Optional.ofNullable(error).map(JsonNode::asString));
    }

    public static byte[] bytes(JsonNode node) {
        return JSON.writeValueAsBytes(node);
    }

    public static String text(JsonNode node) {
        return new String(bytes(node), StandardCharsets.UTF_8);
    }

    /** A copy of {@code node} with object keys sorted at every depth: the compact form templates insert. */
    public static JsonNode sortedDeep(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = NODES.objectNode();
            TreeMap<String, JsonNode> keys = new TreeMap<>();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                keys.put(e.getKey(), e.getValue());
            }
            keys.forEach((k, v) -> out.set(k, sortedDeep(v)));
            return out;
        }
        if (node.isArray()) {
            var out = NODES.arrayNode();
            for (Iterator<JsonNode> it = node.values().iterator(); it.hasNext(); ) {
                out.add(sortedDeep(it.next()));
            }
            return out;
        }
        return node;
    }

    public static JsonNode parseObject(String key, byte[] value) {
        JsonNode o;
        try {
            o = JSON.readTree(value);
        } catch (JacksonException e) {
            throw new RecordException(key, e.getOriginalMessage());
        }
        if (o == null || !o.isObject()) {
            throw new RecordException(key, "not a JSON object");
        }
        return o;
    }

    private static String requiredText(String key, JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isString()) {
            throw new RecordException(key, "`" + field + "` is missing or not a string");
        }
        return v.asString();
    }

    private static long requiredLong(String key, JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
            throw new RecordException(key, "`" + field + "` is missing or not an unsigned integer");
        }
        return v.asLong();
    }
}
