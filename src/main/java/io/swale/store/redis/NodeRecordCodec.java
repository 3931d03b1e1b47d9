package io.swale.store.redis;

import static io.swale.store.redis.RecordFields.requiredLong;
import static io.swale.store.redis.RecordFields.requiredText;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.record.RecordException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Node records as the run's node-records hash keeps them, keys in the spec's order. */
final class NodeRecordCodec {
    /** Node records are capped at 256 KiB; beyond that the output is dropped. */
    static final int MAX_RECORD_BYTES = 262_144;

    private NodeRecordCodec() {}

    /** Encodes a node record, dropping the output (and marking it omitted) when it would exceed 256 KiB. */
    static String encode(NodeRecord record) {
        byte[] full = RecordCodec.bytes(toJson(record));
        if (full.length <= MAX_RECORD_BYTES || record.output().isEmpty()) {
            return new String(full, StandardCharsets.UTF_8);
        }
        return RecordCodec.text(toJson(new NodeRecord(record.status(), record.runId(), record.definition(),
                record.rerun(), record.terminatedAtMs(), Optional.empty(), true, record.error())));
    }

    private static ObjectNode toJson(NodeRecord r) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("status", r.status().wireName());
        o.put("run_id", r.runId());
        o.put("definition", r.definition());
        o.put("rerun", r.rerun());
        o.put("terminated_at_ms", r.terminatedAtMs());
        r.output().ifPresent(v -> o.set("output", RecordCodec.sortedDeep(v)));
        if (r.outputOmitted()) {
            o.put("output_omitted", true);
        }
        r.error().ifPresent(err -> o.put("error", err));
        return o;
    }

    /** @param key names the record in a {@link RecordException} */
    static NodeRecord decode(String key, String text) {
        JsonNode o = RecordCodec.parseObject(key, text.getBytes(StandardCharsets.UTF_8));
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
}
