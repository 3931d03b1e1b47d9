package io.swale.trigger;

import io.swale.cron.CronSchedule;
import io.swale.cron.InvalidCronException;
import io.swale.definition.Definition;
import io.swale.graph.Graph;
import io.swale.record.GraphRecord;
import io.swale.run.DefinitionCatalog;
import io.swale.store.DefinitionStore;
import io.swale.task.SwaleException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The set of cron entries (spec §4.3): one per adopted graph that has a schedule and still has a current
 * pointer, built from the adopted definition. An unchanged entry is kept as it is; a changed expression or
 * catch-up window replaces it. A window that cannot be applied leaves the graph unscheduled, logged once.
 * An entry is active from the adoption of its definition, or from the start of this pump if that is later.
 */
public final class ScheduleRegistry {
    private static final Logger log = LoggerFactory.getLogger(ScheduleRegistry.class);

    private final DefinitionStore store;
    private final DefinitionCatalog catalog;
    private final long startedAtMs;
    private Map<String, ScheduleEntry> entries = new TreeMap<>();
    /** Graph → definition already reported as unschedulable. */
    private final Map<String, String> reported = new HashMap<>();

    /** @param startedAtMs when this pump started: without catch-up, occurrences before it are dropped */
    public ScheduleRegistry(DefinitionStore store, DefinitionCatalog catalog, long startedAtMs) {
        this.store = store;
        this.catalog = catalog;
        this.startedAtMs = startedAtMs;
    }

    /** Recomputes the entries from the graph records and pointers; returns them in graph order. */
    public synchronized List<ScheduleEntry> refresh(long nowMs) {
        SortedMap<String, String> pointers = store.currentPointers();
        Map<String, ScheduleEntry> next = new TreeMap<>();
        for (Map.Entry<String, GraphRecord> r : store.graphRecords().entrySet()) {
            String graph = r.getKey();
            String hash = r.getValue().definition();
            if (!pointers.containsKey(graph)) {
                continue;
            }
            Optional<Definition> definition = load(graph, hash);
            if (definition.isEmpty() || definition.get().graph().schedule().isEmpty()) {
                continue;
            }
            long activeSince = Math.max(startedAtMs, r.getValue().adoptedAtMs());
            entry(graph, hash, definition.get().graph(), nowMs, activeSince).ifPresent(e -> next.put(graph, e));
        }
        entries.keySet().stream().filter(g -> !next.containsKey(g))
                .forEach(g -> log.info("schedule removed graph={}", g));
        entries = next;
        return List.copyOf(next.values());
    }

    private Optional<ScheduleEntry> entry(String graph, String hash, Graph g, long nowMs, long activeSinceMs) {
        CronSchedule cron;
        try {
            cron = CronSchedule.parse(g.schedule().orElseThrow());
        } catch (InvalidCronException e) {
            reportOnce(graph, hash, "invalid schedule: " + e.getMessage());
            return Optional.empty();
        }
        Optional<Long> catchupMs;
        try {
            catchupMs = g.catchup().map(Duration::toMillis);
        } catch (ArithmeticException e) {
            reportOnce(graph, hash, "the catch-up window " + g.catchup().orElseThrow() + " is not representable in ms");
            return Optional.empty();
        }
        ScheduleEntry old = entries.get(graph);
        if (old != null && old.sameSchedule(cron, catchupMs)) {
            return Optional.of(old.withDefinition(hash, g.partitioning()));
        }
        if (catchupMs.isPresent() && nowMs - catchupMs.get() < 0) {
            reportOnce(graph, hash, "now minus the catch-up window (" + g.catchup().orElseThrow().toSeconds()
                    + " s) is before the epoch");
            return Optional.empty();
        }
        reported.remove(graph);
        log.info("schedule registered graph={} definition={} schedule=\"{}\" catchupMs={} satisfiable={}", graph, hash,
                cron.normalized(), catchupMs.map(String::valueOf).orElse("none"), cron.satisfiable());
        return Optional.of(new ScheduleEntry(graph, hash, cron, g.partitioning(), catchupMs, activeSinceMs));
    }

    private Optional<Definition> load(String graph, String hash) {
        try {
            return Optional.of(catalog.get(hash));
        } catch (SwaleException.UnknownDefinition e) {
            reportOnce(graph, hash, "the adopted definition is absent");
            return Optional.empty();
        } catch (RuntimeException e) {
            reportOnce(graph, hash, "the adopted definition does not load: " + e.getMessage());
            return Optional.empty();
        }
    }

    private void reportOnce(String graph, String hash, String reason) {
        if (!hash.equals(reported.put(graph, hash))) {
            log.warn("graph left unscheduled graph={} definition={} reason={}", graph, hash, reason);
        }
    }
}
