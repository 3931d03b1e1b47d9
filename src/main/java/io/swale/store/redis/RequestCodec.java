package io.swale.store.redis;

import io.swale.graph.Partition;
import io.swale.record.AdminRequest;
import io.swale.record.RecordCodec;
import io.swale.record.RecordException;
import io.swale.record.RequestJson;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The stored JSON of request records, keys in the order of spec §5.5. */
final class RequestCodec {
    private RequestCodec() {}

    static String encode(RequestRecord r) {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        o.set("request", RequestJson.request(r.request()));
        o.put("handled_at_ms", r.handledAtMs());
        o.set("outcome", RequestJson.outcome(r.outcome()));
        return RecordCodec.text(o);
    }

    static RequestRecord decode(String id, String json) {
        String key = "request " + id;
        JsonNode o = RecordCodec.parseObject(key, json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        JsonNode req = o.path("request");
        JsonNode out = o.path("outcome");
        if (!req.isObject() || !out.isObject() || !o.path("handled_at_ms").isIntegralNumber()) {
            throw new RecordException(key, "not a request record");
        }
        return new RequestRecord(id, decodeRequest(key, req), o.get("handled_at_ms").asLong(),
                decodeOutcome(key, out), false);
    }

    /** The request a reservation holds (its JSON as {@link io.swale.record.RequestJson#request} wrote it). */
    static AdminRequest decodeReservation(String id, String json) {
        String key = "reservation of " + id;
        return decodeRequest(key, RecordCodec.parseObject(key, json.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    private static AdminRequest decodeRequest(String key, JsonNode r) {
        String graph = text(key, r, "graph");
        return switch (text(key, r, "kind")) {
            case "start" -> new AdminRequest.Start(graph, partitions(key, r.path("partitions")));
            case "rerun" -> new AdminRequest.Rerun(graph, partition(key, r, "partition"), text(key, r, "node"));
            case "cancel" -> new AdminRequest.Cancel(graph, partition(key, r, "partition"));
            default -> throw new RecordException(key, "unknown request kind");
        };
    }

    private static RequestOutcome decodeOutcome(String key, JsonNode o) {
        return switch (text(key, o, "kind")) {
            case "started" -> new RequestOutcome.Started(partitions(key, o.path("partitions")));
            case "rerun" -> new RequestOutcome.Rerun(text(key, o, "run_id"));
            case "cancelled" -> new RequestOutcome.Cancelled();
            case "refused" -> new RequestOutcome.Refused(text(key, o, "reason"));
            default -> throw new RecordException(key, "unknown outcome kind");
        };
    }

    private static List<Partition> partitions(String key, JsonNode a) {
        if (!a.isArray()) {
            throw new RecordException(key, "`partitions` is not an array");
        }
        List<Partition> out = new ArrayList<>();
        for (JsonNode p : a) {
            if (!p.isString() || !Partition.isValid(p.asString())) {
                throw new RecordException(key, "invalid partition in `partitions`");
            }
            out.add(Partition.of(p.asString()));
        }
        return out;
    }

    private static Partition partition(String key, JsonNode o, String field) {
        String p = text(key, o, field);
        if (!Partition.isValid(p)) {
            throw new RecordException(key, "invalid partition `" + p + "`");
        }
        return Partition.of(p);
    }

    private static String text(String key, JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isString()) {
            throw new RecordException(key, "`" + field + "` is missing or not a string");
        }
        return v.asString();
    }
}
