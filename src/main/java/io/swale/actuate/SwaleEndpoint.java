package io.swale.actuate;

import io.swale.api.PoolViews;
import io.swale.api.RunViews;
import io.swale.config.ConfiguredPools;
import io.swale.record.GraphRunRecord;
import io.swale.roles.PoolRole;
import io.swale.settings.SwaleProperties;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/swale}: what this installation is doing now, from Redis only (no Kafka round trip): the
 * runs of the active-runs index (the first 100 listed) and every pool's active instances.
 */
@Endpoint(id = "swale")
public class SwaleEndpoint {
    static final int LISTED = 100;
    private final RunStore runs;
    private final PoolViews poolViews;
    private final ConfiguredPools pools;
    private final PoolRole poolRole;
    private final SwaleProperties props;

    public SwaleEndpoint(RunStore runs, PoolViews poolViews, ConfiguredPools pools, PoolRole poolRole,
            SwaleProperties props) {
        this.runs = runs;
        this.poolViews = poolViews;
        this.pools = pools;
        this.poolRole = poolRole;
        this.props = props;
    }

    @ReadOperation
    public Map<String, Object> summary() {
        List<RunKey> indexed = runs.activeRuns();
        Map<RunKey, GraphRunRecord> records = runs.runRecords(indexed.subList(0, Math.min(LISTED, indexed.size())));
        List<Map<String, Object>> listed = new ArrayList<>();
        records.forEach((key, r) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("graph", key.graph());
            m.put("partition", key.partition().key());
            m.put("state", r.state().wireName());
            m.put("requestedAt", RunViews.time(r.requestedAtMs()));
            listed.add(m);
        });
        var counts = poolViews.counts();
        Map<String, Object> poolMap = new LinkedHashMap<>();
        pools.pools().forEach((name, slots) -> {
            var c = counts.getOrDefault(name, new PoolViews.Counts(0, 0, 0, 0));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("slots", slots);
            m.put("runningHere", poolRole.running().getOrDefault(name, 0));
            m.put("running", c.running() + c.cancelling());
            m.put("pending", c.pending());
            m.put("delayed", c.delayed());
            poolMap.put(name, m);
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("roles", props.roles());
        out.put("activeRuns", indexed.size());
        out.put("runs", listed);
        out.put("pools", poolMap);
        return out;
    }
}
