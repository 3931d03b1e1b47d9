package io.swale.store.redis;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.record.RecordException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import tools.jackson.core.JsonToken;
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

    /**
     * From the UTF-8 bytes Redis sent.
     *
     * @param key names the record in a {@link RecordException}
     */
    static NodeRecord decode(String key, byte[] utf8) {
        Fields f = new Fields();
        StoredObject.read(key, utf8, (name, p) -> {
            switch (name) {
                case "status" -> f.status = StoredObject.requiredText(key, p, name);
                case "run_id" -> f.runId = StoredObject.requiredText(key, p, name);
                case "definition" -> f.definition = StoredObject.requiredText(key, p, name);
                case "rerun" -> f.rerun = StoredObject.requiredUnsigned(key, p, name);
                case "terminated_at_ms" -> f.terminatedAtMs = StoredObject.requiredUnsigned(key, p, name);
                case "output" -> f.output = StoredObject.tree(p);
                case "output_omitted" -> {
                    if (!p.currentToken().isBoolean()) {
                        throw new RecordException(key, "`output_omitted` is not a boolean");
                    }
                    f.outputOmitted = p.getBooleanValue();
                }
                case "error" -> {
                    if (p.currentToken() != JsonToken.VALUE_STRING) {
                        throw new RecordException(key, "`error` is not a string");
                    }
                    f.error = p.getString();
                }
                default -> { }
            }
        });
        if (f.status == null) {
            throw RecordFields.notText(key, "status");
        }
        String statusText = f.status;
        NodeStatus status = NodeStatus.fromWireName(statusText)
                .orElseThrow(() -> new RecordException(key, "unknown status `" + statusText + "`"));
        if (f.runId == null || f.definition == null) {
            throw RecordFields.notText(key, f.runId == null ? "run_id" : "definition");
        }
        if (f.rerun < 0 || f.terminatedAtMs < 0) {
            throw RecordFields.notUnsigned(key, f.rerun < 0 ? "rerun" : "terminated_at_ms");
        }
        return new NodeRecord(status, f.runId, f.definition, f.rerun, f.terminatedAtMs, Optional.ofNullable(f.output),
                f.outputOmitted, Optional.ofNullable(f.error));
    }

    /** A record's fields as they are read; a number still negative was not there. */
    private static final class Fields {
        String status;
        String runId;
        String definition;
        long rerun = -1;
        long terminatedAtMs = -1;
        JsonNode output;
        boolean outputOmitted;
        String error;
    }
}
