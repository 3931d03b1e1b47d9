package io.swale.api;

import io.swale.config.ConfiguredPools;
import io.swale.kafka.KafkaInspector;
import io.swale.kafka.SwaleTopics;
import io.swale.roles.PoolRole;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/**
 * Pools as operators see them: configured slots, the task instances of active runs by state (read from
 * Redis, so across every replica), what this replica runs, and the dispatch topic's consumer lag.
 */
@Component
public class PoolViews {
    private static final int BATCH = 200;
    /**
     * How old the counts may be: counting walks every active run's instances (1.3 s at 10,700 active runs,
     * docs/performance.md), and the pools page of every open dashboard, /queues and /actuator/swale ask for them.
     */
    static final Duration COUNTS_MAX_AGE = Duration.ofSeconds(1);

    /** Active instances of one pool, by state. */
    public record Counts(int pending, int running, int delayed, int cancelling) {}

    private final ConfiguredPools pools;
    private final PoolRole poolRole;
    private final RunStore runs;
    private final KafkaInspector kafka;
    private final SwaleTopics topics;
    private final RecentReading<Map<String, Counts>> recentCounts = new RecentReading<>(this::walkCounts, COUNTS_MAX_AGE);

    public PoolViews(ConfiguredPools pools, PoolRole poolRole, RunStore runs, KafkaInspector kafka, SwaleTopics topics) {
        this.pools = pools;
        this.poolRole = poolRole;
        this.runs = runs;
        this.kafka = kafka;
        this.topics = topics;
    }

    public List<Map<String, Object>> pools() {
        Map<String, Counts> counts = counts();
        Map<KafkaInspector.Channel, Map<String, Object>> views = new LinkedHashMap<>();
        pools.pools().forEach((name, slots) -> views.put(topics.poolChannel(name), view(name, slots, counts)));
        QueueViews.putGroupFigures(views, kafka);
        return new ArrayList<>(views.values());
    }

    public Optional<Map<String, Object>> pool(String name) {
        Integer slots = pools.pools().get(name);
        if (slots == null) {
            return Optional.empty();
        }
        Map<String, Object> view = view(name, slots, counts());
        QueueViews.putGroupFigures(Map.of(topics.poolChannel(name), view), kafka);
        return Optional.of(view);
    }

    /**
     * Active task instances per pool and state, at most {@link #COUNTS_MAX_AGE} old: shared by whoever asks
     * meanwhile on this replica.
     */
    public Map<String, Counts> counts() {
        return recentCounts.get();
    }

    /** Walks the active-runs index (never a keyspace scan). */
    private Map<String, Counts> walkCounts() {
        Map<String, int[]> acc = new TreeMap<>();
        List<RunKey> active = runs.activeRuns();
        for (int from = 0; from < active.size(); from += BATCH) {
            for (List<TaskInstance> list : runs.instances(active.subList(from, Math.min(active.size(), from + BATCH))).values()) {
                for (TaskInstance i : list) {
                    int[] c = acc.computeIfAbsent(i.pool(), p -> new int[4]);
                    switch (i.status()) {
                        case PENDING -> c[0]++;
                        case RUNNING -> c[1]++;
                        case WAITING -> c[2]++;
                        case CANCELLING -> c[3]++;
                        default -> { }
                    }
                }
            }
        }
        Map<String, Counts> out = new TreeMap<>();
        acc.forEach((p, c) -> out.put(p, new Counts(c[0], c[1], c[2], c[3])));
        return Collections.unmodifiableMap(out);
    }

    private Map<String, Object> view(String name, int slots, Map<String, Counts> counts) {
        Counts c = counts.getOrDefault(name, new Counts(0, 0, 0, 0));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("slots", slots);
        m.put("running", c.running() + c.cancelling());
        m.put("runningHere", poolRole.running().getOrDefault(name, 0));
        m.put("pending", c.pending());
        m.put("delayed", c.delayed());
        m.put("topic", topics.pool(name));
        m.put("group", topics.poolGroup(name));
        return m;
    }
}
