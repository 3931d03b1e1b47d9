package io.swale.api.dashboard;

import io.swale.api.RunViews;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One task instance that runs at this moment: claimed by a pool worker (running) or asked to stop but
 * not yet stopped (cancelling).
 *
 * @param token the fencing token of the claim: a new attempt of the same run id is a new entry
 */
public record RunningInstance(
        String runId,
        long token,
        String graph,
        String partition,
        String node,
        String pool,
        String state,
        long attempt,
        long maxAttempts,
        Optional<Long> startedMs) {

    /** Identity of one claim: the run id and its fencing token. */
    public String key() {
        return runId + "#" + token;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", key());
        m.put("runId", runId);
        m.put("graph", graph);
        m.put("partition", partition);
        m.put("node", node);
        m.put("pool", pool);
        m.put("state", state);
        m.put("attempt", attempt);
        m.put("maxAttempts", maxAttempts);
        m.put("startedAt", startedMs.map(RunViews::time).orElse(null));
        return m;
    }
}
