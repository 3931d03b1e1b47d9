package io.swale.trigger;

import io.swale.cron.CronSchedule;
import io.swale.cron.Firing;
import io.swale.run.DefinitionCatalog;
import io.swale.store.DefinitionStore;
import io.swale.store.WatermarkStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cron pump (spec §4.3–§4.4, §14 #15): each tick recomputes the entries, then fires every due
 * occurrence, oldest first, one per schedule per round so that a long replay does not starve the other
 * schedules. A firing publishes its trigger message and only then advances the watermark. Firings are
 * decided here, never by Quartz; two pumps at once publish some firings twice, which starts one run
 * because run creation is create-only.
 */
public final class CronPump {
    private static final Logger log = LoggerFactory.getLogger(CronPump.class);
    /** Firings one tick sends at most; the rest follow at the next tick. */
    static final int MAX_FIRINGS_PER_TICK = 1_000;

    /** What one tick did: the schedules it knew, and the firings it sent per graph. */
    public record Tick(int scheduled, Map<String, Integer> firedByGraph) {
        public Tick {
            firedByGraph = Map.copyOf(firedByGraph);
        }

        public int fired() {
            return firedByGraph.values().stream().mapToInt(Integer::intValue).sum();
        }

        public int fired(String graph) {
            return firedByGraph.getOrDefault(graph, 0);
        }
    }

    private record Due(ScheduleEntry entry, Instant at) {}

    /**
     * The next occurrence after {@code from}. It also answers for any later bound before that occurrence,
     * so a steady schedule costs no cron evaluation per tick.
     */
    private record Memo(CronSchedule cron, long from, Optional<Instant> next) {
        boolean answers(CronSchedule c, long lower) {
            return c == cron && from <= lower && next.map(n -> lower < n.toEpochMilli()).orElse(true);
        }
    }

    private final Map<String, Memo> memos = new HashMap<>();

    private final ScheduleRegistry registry;
    private final WatermarkStore watermarks;
    private final TriggerPublisher publisher;
    private final Clock clock;
    private final Duration liveLateness;

    /** A pump started now: without catch-up, firings missed before this moment are dropped. */
    public CronPump(DefinitionStore store, DefinitionCatalog catalog, WatermarkStore watermarks,
            TriggerPublisher publisher, Clock clock) {
        this(store, catalog, watermarks, publisher, clock, Duration.ZERO);
    }

    /** As above, for a pump ticked every {@code tick}: a firing stays live for two ticks at least. */
    public CronPump(DefinitionStore store, DefinitionCatalog catalog, WatermarkStore watermarks,
            TriggerPublisher publisher, Clock clock, Duration tick) {
        this.liveLateness = ScheduleEntry.liveLateness(tick);
        this.registry = new ScheduleRegistry(store, catalog, clock.millis());
        this.watermarks = watermarks;
        this.publisher = publisher;
        this.clock = clock;
    }

    public synchronized Tick tick() {
        long now = clock.millis();
        List<ScheduleEntry> entries = registry.refresh(now);
        memos.keySet().retainAll(entries.stream().map(ScheduleEntry::graph).toList());
        if (entries.isEmpty()) {
            return new Tick(0, Map.of());
        }
        Map<String, Long> marks = new HashMap<>(watermarks.watermarks());
        Set<String> failed = new HashSet<>();
        Map<String, Integer> byGraph = new TreeMap<>();
        int fired = 0;
        while (fired < MAX_FIRINGS_PER_TICK) {
            List<Due> round = new ArrayList<>();
            for (ScheduleEntry e : entries) {
                if (!failed.contains(e.graph())) {
                    due(e, Optional.ofNullable(marks.get(e.graph())), now).ifPresent(t -> round.add(new Due(e, t)));
                }
            }
            if (round.isEmpty()) {
                break;
            }
            round.sort(Comparator.comparing(Due::at).thenComparing(d -> d.entry().graph()));
            for (Due d : round) {
                if (fired >= MAX_FIRINGS_PER_TICK) {
                    break;
                }
                if (!fire(d, marks)) {
                    failed.add(d.entry().graph());
                    continue;
                }
                byGraph.merge(d.entry().graph(), 1, Integer::sum);
                fired++;
            }
        }
        return new Tick(entries.size(), byGraph);
    }

    /** As {@link ScheduleEntry#due}, through the memo. */
    private Optional<Instant> due(ScheduleEntry e, Optional<Long> watermark, long now) {
        long lower = e.lowerBound(watermark, now, liveLateness);
        Memo m = memos.get(e.graph());
        if (m == null || !m.answers(e.cron(), lower)) {
            m = new Memo(e.cron(), lower, e.cron().next(Instant.ofEpochMilli(lower)));
            memos.put(e.graph(), m);
        }
        return m.next().filter(t -> t.toEpochMilli() <= now);
    }

    private boolean fire(Due due, Map<String, Long> marks) {
        ScheduleEntry e = due.entry();
        Firing firing = e.cron().firing(due.at());
        try {
            publisher.publish(e.graph(), firing);
        } catch (RuntimeException ex) {
            log.warn("firing not sent, retried next tick graph={} fire={} error={}", e.graph(), due.at(), ex.toString());
            return false;
        }
        long at = due.at().toEpochMilli();
        boolean advanced;
        try {
            advanced = watermarks.advance(e.graph(), at);
        } catch (RuntimeException ex) {
            // sent, so a later tick sends it again (a start is idempotent); the other schedules go on
            log.warn("firing sent, watermark not advanced graph={} fire={} error={}", e.graph(), due.at(), ex.toString());
            return false;
        }
        if (advanced) {
            marks.put(e.graph(), at);
        } else {
            // Another pump got further: continue from where it is.
            marks.put(e.graph(), Math.max(at, watermarks.watermarks().getOrDefault(e.graph(), at)));
        }
        log.info("fired graph={} fire={} previous={} partition={}", e.graph(), due.at(),
                firing.previousFireMs().map(Instant::ofEpochMilli).map(Instant::toString).orElse("none"),
                firing.partition(e.partitioning()).map(Object::toString).orElse("none"));
        return true;
    }
}
