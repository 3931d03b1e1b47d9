package io.swale.store;

import io.swale.record.RecordCodec;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One ended attempt of a task instance, as the store keeps it (capped per instance). Its JSON form here is
 * the one the dead-letter copy carries.
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
}
