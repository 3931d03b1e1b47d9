package io.swale.store.redis;

import io.swale.record.RecordCodec;
import io.swale.record.RecordException;
import io.swale.store.InstanceStatus;
import io.swale.store.PendingInstance;
import io.swale.store.TaskInstance;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The small JSON document the Redis scripts keep per task instance. */
final class InstanceCodec {
    private InstanceCodec() {}

    /**
     * A new pending instance; the submit script stamps the dispatch time. {@code ready_us}, when known, is a
     * decimal string because the scripts' cjson keeps only 14 significant digits of a number; the scripts add
     * {@code submitted_us}, {@code started_us} and {@code ended_us} the same way, and the latency metrics and
     * the bench read these stamps.
     */
    static String pending(PendingInstance p) {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        o.put("state", InstanceStatus.PENDING.wireName());
        o.put("node", p.node());
        p.asset().ifPresent(a -> o.put("asset", a));
        o.put("definition", p.definition());
        o.put("rerun", p.rerun());
        o.put("pool", p.pool());
        o.put("step", 0);
        o.put("attempt", 0);
        o.put("max", p.maxAttempts());
        o.put("token", 0);
        p.readyUs().ifPresent(us -> o.put("ready_us", Long.toString(us)));
        return RecordCodec.text(o);
    }

    static TaskInstance decode(String runId, String json) {
        JsonNode o = RecordCodec.parseObject("instance " + runId, json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        String state = o.path("state").asString("");
        InstanceStatus status = InstanceStatus.fromWireName(state)
                .orElseThrow(() -> new RecordException("instance " + runId, "unknown state `" + state + "`"));
        return new TaskInstance(runId, status, o.path("node").asString(""),
                o.hasNonNull("asset") ? Optional.of(o.get("asset").asString()) : Optional.empty(),
                o.path("definition").asString(""), o.path("rerun").asLong(),
                o.path("pool").asString(""), o.path("step").asLong(), o.path("attempt").asLong(),
                o.path("max").asLong(1), o.path("token").asLong(), optLong(o, "lease"), optLong(o, "due"),
                o.path("dispatched").asLong(), optLong(o, "started"),
                o.hasNonNull("err") ? Optional.of(o.get("err").asString()) : Optional.empty(),
                o.hasNonNull("worker") ? Optional.of(o.get("worker").asString()) : Optional.empty());
    }

    private static Optional<Long> optLong(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || !v.isNumber() ? Optional.empty() : Optional.of(v.asLong());
    }
}
