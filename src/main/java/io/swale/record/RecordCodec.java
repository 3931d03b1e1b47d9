package io.swale.record;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON mapper and helpers shared by every JSON form: compact bytes, keys sorted at every depth, and
 * strict reading of an object (a value of the wrong shape is a {@link RecordException} naming the key). The
 * stored forms of the records live with the store adapter.
 */
public final class RecordCodec {
    public static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RecordCodec() {}

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
}
