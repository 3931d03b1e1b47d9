package io.swale.run;

import io.swale.definition.Definition;
import io.swale.definition.Growths;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.readiness.MappedItems;
import io.swale.record.NodeRecord;
import io.swale.store.RecordField;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's effective graph (docs/dynamic-graphs.md §8.7): its definition plus every current declared growth, in
 * the order their declaring records were written. A growth counts while its declaring node's record is the one
 * it was stored with, succeeded and current: a rerun of that node takes it out of the graph at once.
 */
public final class RunGraphs {
    private static final int CACHE_SIZE = 512;
    // a stored growth never changes: the graph built from one definition and one set of growths is cached
    private static final Map<String, Graph> CACHE = new ConcurrentHashMap<>();
    // the rerun a stored growth was declared by, so a run read does not parse every growth again
    private static final Map<String, Long> RERUNS = new ConcurrentHashMap<>();
    // a growth left out is logged once per run and node, not at every read of the run
    private static final java.util.Set<String> CYCLES_LOGGED = ConcurrentHashMap.newKeySet();
    private static final Logger log = LoggerFactory.getLogger(RunGraphs.class);

    private RunGraphs() {}

    /** The effective graph of the run {@code view} of {@code definition}. */
    public static Graph of(Definition definition, RunView view) {
        return build(definition, view, Optional.empty());
    }

    /** The effective graph of the run {@code view}, its definition looked up in {@code definitions}. */
    public static Graph of(DefinitionCatalog definitions, RunView view) {
        return of(definitions.get(view.run().definition()), view);
    }

    /**
     * The grown node that the instance {@code runId} of plain node {@code node} at rerun {@code rerun} would run, if
     * the run's graph has it and the instance is not older than the node's expected rerun. An older one was
     * submitted before a rerun replaced the growth that declared it: the node may be in the graph again, declared
     * once more by the rerun's attempt, but that instance is obsolete, and run it would only burn a slot and
     * leases on the replaced growth's inputs (docs/dynamic-graphs.md §8.5).
     */
    public static Optional<Node> grownNodeFor(Definition definition, RunView view, String node, long rerun) {
        if (rerun < view.run().expectedRerun(node)) {
            return Optional.empty();
        }
        return of(definition, view).node(node);
    }

    /**
     * Whether the active plain instance {@code i} of the grown {@code node} is older than the node's expected
     * rerun: see {@link #grownNodeFor}.
     */
    static boolean supersededGrownInstance(Graph graph, RunView view, String node, TaskInstance i) {
        if (graph.grownBy(node).isEmpty()) {
            return false;
        }
        // an item of a grown mapped node declared again: the rerun that replaced its growth raised the node's
        // generation floor past every item it had
        return i.node().equals(node) ? i.rerun() < view.run().expectedRerun(node)
                : i.rerun() < MappedItems.floor(view.run(), node);
    }

    /** As {@link #of}, leaving out the growth of {@code by}: what a new growth of {@code by} is checked against. */
    public static Graph without(Definition definition, RunView view, String by) {
        return build(definition, view, Optional.of(by));
    }

    private record Entry(String by, String stored, long at) {}

    private static Graph build(Definition definition, RunView view, Optional<String> leftOut) {
        Graph base = definition.graph();
        if (view.growths().isEmpty()) {
            return base;
        }
        List<Entry> entries = new ArrayList<>();
        view.growths().forEach((by, stored) -> {
            if (leftOut.filter(by::equals).isEmpty()) {
                entries.add(new Entry(by, stored, 0));
            }
        });
        if (entries.isEmpty()) {
            return base;
        }
        entries.sort(Comparator.comparing(Entry::by));
        Graph graph = base;
        List<Entry> pending = entries;
        // nested growths attach once their declaring node is in: repeat until nothing more attaches
        List<Entry> counted = new ArrayList<>();
        boolean progress = true;
        while (progress && !pending.isEmpty()) {
            progress = false;
            List<Entry> next = new ArrayList<>();
            List<Entry> ready = new ArrayList<>();
            for (Entry e : pending) {
                Optional<Node> node = graph.node(e.by());
                Optional<Long> at = node.flatMap(n -> currentAt(view, n, e.stored()));
                if (node.isPresent() && at.isPresent()) {
                    ready.add(new Entry(e.by(), e.stored(), at.get()));
                } else if (node.isEmpty()) {
                    next.add(e);
                }
            }
            ready.sort(Comparator.comparingLong(Entry::at).thenComparing(Entry::by));
            for (Entry e : ready) {
                counted.add(e);
                Graph grown = attach(definition.hash(), graph, counted, e.stored());
                if (grown.topologicalOrder().size() < grown.nodes().size()) {
                    // two growths checked at once, each against the graph without the other, can close a cycle
                    // together: the later one is left out, as a grown name the earlier one took is
                    counted.removeLast();
                    warnCycle(view, e.by());
                    continue;
                }
                graph = grown;
                progress = true;
            }
            pending = next;
        }
        return graph;
    }

    private static void warnCycle(RunView view, String by) {
        if (CYCLES_LOGGED.add(view.key().id() + '\u0000' + by)) {
            if (CYCLES_LOGGED.size() > CACHE_SIZE) {
                CYCLES_LOGGED.clear();
            }
            log.warn("growth left out graph={} partition={} node={}: with an earlier growth of the run it would form a "
                    + "cycle", view.key().graph(), view.key().partition().key(), by);
        }
    }

    private static Graph attach(String hash, Graph graph, List<Entry> counted, String stored) {
        StringBuilder key = new StringBuilder(hash);
        counted.forEach(e -> key.append('\u0000').append(e.by()).append('\u0001').append(e.stored()));
        return cached(CACHE, key.toString(), k -> Growths.attach(graph, stored));
    }

    private static long declaredBy(String stored) {
        return cached(RERUNS, stored, s -> Growths.read(s).rerun());
    }

    /** A bounded memo: emptied when full, since every entry is cheap to make again. */
    private static <V> V cached(Map<String, V> cache, String key, Function<String, V> make) {
        V value = cache.get(key);
        if (value == null) {
            value = make.apply(key);
            if (cache.size() >= CACHE_SIZE) {
                cache.clear();
            }
            cache.put(key, value);
        }
        return value;
    }

    /**
     * Whether {@code node}, absent from the run's effective {@code graph}, is still declared by a growth whose
     * declaring record is current: one left out because it would close a cycle with an earlier one (docs/dynamic-
     * graphs.md §8.9), which a later rerun may let in again. A growth under a grown declaring node that is itself
     * out of the graph counts only while that node's record is still the current one it was stored with. Only a
     * node that no such growth declares was taken out by a rerun.
     */
    static boolean declaredByCurrentGrowth(RunView view, Graph graph, String node) {
        for (Map.Entry<String, String> e : view.growths().entrySet()) {
            if (!declares(e.getValue(), node)) {
                continue;
            }
            // a declaring node not in the graph is a grown one (every node of the definition is in it): its growth
            // counts again only if that node comes back with this very record current, which a rerun that took
            // it out has ruled out by expecting a new record of it
            RecordField field = graph.node(e.getKey()).map(RunRecords::field)
                    .orElse(RunRecords.field(e.getKey(), Optional.empty()));
            if (currentAt(view, e.getKey(), field, e.getValue()).isPresent()) {
                return true;
            }
        }
        return false;
    }

    private static boolean declares(String stored, String node) {
        for (tools.jackson.databind.JsonNode table : Growths.read(stored).tables()) {
            if (node.equals(table.path("name").asString())) {
                return true;
            }
        }
        return false;
    }

    /** When the declaring record was written, if the growth is the one of its current succeeded record. */
    private static Optional<Long> currentAt(RunView view, Node by, String stored) {
        return currentAt(view, by.name(), RunRecords.field(by), stored);
    }

    private static Optional<Long> currentAt(RunView view, String by, RecordField field, String stored) {
        NodeRecord record = view.nodeRecords().get(field.key());
        if (record == null || !record.succeeded() || !view.run().isCurrent(by, record)) {
            return Optional.empty();
        }
        if (declaredBy(stored) != record.rerun()) {
            return Optional.empty();
        }
        return Optional.of(record.terminatedAtMs());
    }
}
