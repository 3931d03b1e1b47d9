package io.swale.store.redis;

import static io.swale.store.redis.RecordFields.requiredLong;
import static io.swale.store.redis.RecordFields.requiredText;

import io.swale.record.GraphRecord;
import io.swale.record.RecordCodec;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The graph record (which definition a graph adopted, and when) as the graph-records hash keeps it. */
final class GraphRecordCodec {
    private GraphRecordCodec() {}

    static String encode(GraphRecord graph) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("definition", graph.definition());
        o.put("adopted_at_ms", graph.adoptedAtMs());
        return RecordCodec.text(o);
    }

    static GraphRecord decode(String key, String text) {
        JsonNode o = RecordCodec.parseObject(key, text.getBytes(StandardCharsets.UTF_8));
        return new GraphRecord(requiredText(key, o, "definition"), requiredLong(key, o, "adopted_at_ms"));
    }
}
