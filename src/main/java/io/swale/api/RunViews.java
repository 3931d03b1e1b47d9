package io.swale.api;

import io.swale.cron.CronSchedule;
import io.swale.cron.InvalidCronException;
import io.swale.definition.Definition;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.readiness.NodeState;
import io.swale.readiness.Readiness;
import io.swale.record.GraphRecord;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.run.DefinitionCatalog;
import io.swale.run.RunRecords;
import io.swale.store.AttemptRecord;
import io.swale.store.DefinitionStore;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.springframework.stereotype.Component;

/** Read-only views of graphs and runs (spec §11), shaped as the REST API returns them. */
@Component
public class RunViews {
    private static final int BATCH = 1000;
    /**
     * How old the graphs list's run counts may be. Counting reads every run of every graph (10,000 runs: about
     * 10,000 Redis commands, docs/performance.md), and the graphs page of every open dashboard, {@code swale status}
     * and scripts ask for them.
     */
    static final Duration COUNTS_MAX_AGE = Duration.ofSeconds(1);
    private static final Map<String, Integer> NO_RUNS = noRuns();
    /**
     * A graph's latest run is the newest of its last few index entries whose run record is there: a run being
     * created or removed has its entry without its record for a moment, and one whose creation crashed keeps it so.
     */
    private static final int LATEST_CANDIDATES = 4;
    private final DefinitionStore definitions;
    private final DefinitionCatalog catalog;
    private final RunStore runs;
    private final TaskStore tasks;
    // Who waits for which resource (docs/resources.md)
    private final io.swale.store.ResourceStore resources;
    private final RecentReading<Map<String, Map<String, Integer>>> recentCounts;

    public RunViews(DefinitionStore definitions, DefinitionCatalog catalog, RunStore runs, TaskStore tasks) {
        this(definitions, catalog, runs, tasks, null);
    }

    @org.springframework.beans.factory.annotation.Autowired
    public RunViews(DefinitionStore definitions, DefinitionCatalog catalog, RunStore runs, TaskStore tasks,
            io.swale.store.ResourceStore resources) {
        this(definitions, catalog, runs, tasks, resources, System::nanoTime);
    }

    RunViews(DefinitionStore definitions, DefinitionCatalog catalog, RunStore runs, TaskStore tasks,
            io.swale.store.ResourceStore resources, LongSupplier nanoTime) {
        this.resources = resources;
        this.definitions = definitions;
        this.catalog = catalog;
        this.runs = runs;
        this.tasks = tasks;
        this.recentCounts = new RecentReading<>(this::walkCounts, COUNTS_MAX_AGE, nanoTime);
    }

    /**
     * Every graph with a graph record or a run, read anew, with its latest run as it is now and its run counts
     * by state at most {@link #COUNTS_MAX_AGE} old.
     */
    public List<Map<String, Object>> graphs() {
        return graphs(0);
    }

    /**
     * As {@link #graphs()}, and with {@code recent} above 0 each graph's newest runs too, at most that many, newest
     * first ({@code recent}: partition and state), read with its latest run.
     */
    public List<Map<String, Object>> graphs(int recent) {
        Map<String, GraphRecord> records = definitions.graphRecords();
        Set<String> names = new TreeSet<>(records.keySet());
        names.addAll(runs.graphsWithRuns());
        Map<String, Map<String, Integer>> counts = recentCounts.get();
        Map<String, List<Map<String, Object>>> newest = newestRuns(names, recent);
        List<Map<String, Object>> out = new ArrayList<>();
        for (String name : names) {
            Optional<GraphRecord> record = Optional.ofNullable(records.get(name));
            Optional<Graph> graph = record.flatMap(r -> catalog.find(r.definition())).map(Definition::graph);
            List<Map<String, Object>> itsRuns = newest.getOrDefault(name, List.of());
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("name", name);
            g.put("definition", record.map(GraphRecord::definition).orElse(null));
            g.put("schedule", graph.flatMap(Graph::schedule).map(RunViews::schedule).orElse(null));
            g.put("partitioning", graph.map(x -> x.partitioning().configName()).orElse(null));
            g.put("runs", counts.getOrDefault(name, NO_RUNS));
            g.put("latest", itsRuns.isEmpty() ? null : itsRuns.getFirst());
            if (recent > 0) {
                g.put("recent", itsRuns.stream().limit(recent).toList());
            }
            out.add(g);
        }
        return out;
    }

    /**
     * Each graph's newest runs whose record is there, newest first, among its newest index entries: every graph's
     * entries in one round trip, then the records of the first {@code recent} of them (of the first alone when no
     * recent runs are asked for), then, only for a graph none of whose records was there, those of the rest.
     */
    private Map<String, List<Map<String, Object>>> newestRuns(Set<String> names, int recent) {
        Map<String, List<Partition>> entries = runs.newestPartitions(names, Math.max(recent, LATEST_CANDIDATES));
        int readFirst = Math.max(recent, 1);
        Map<String, List<Map<String, Object>>> out = new HashMap<>();
        readRuns(entries, 0, readFirst, name -> true, out);
        readRuns(entries, readFirst, LATEST_CANDIDATES, name -> !out.containsKey(name), out);
        return out;
    }

    /** Adds the runs of entries {@code from} (included) to {@code to} of the graphs {@code of} takes: a round trip. */
    private void readRuns(Map<String, List<Partition>> entries, int from, int to, Predicate<String> of,
            Map<String, List<Map<String, Object>>> out) {
        List<RunKey> keys = new ArrayList<>();
        entries.forEach((name, partitions) -> {
            if (of.test(name)) {
                partitions.stream().skip(from).limit(Math.max(0, to - from))
                        .forEach(p -> keys.add(new RunKey(name, p)));
            }
        });
        if (keys.isEmpty()) {
            return;
        }
        // newest first within each graph, as the entries are
        runs.runRecords(keys).forEach((key, run) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("partition", key.partition().key());
            m.put("state", run.state().wireName());
            out.computeIfAbsent(key.graph(), g -> new ArrayList<>()).add(m);
        });
    }

    /**
     * Reads every graph's index of runs in one round trip, then every run record in pipelined batches, never node
     * records or task instances: about one Redis command per run and a round trip per 1,000 runs.
     */
    private Map<String, Map<String, Integer>> walkCounts() {
        List<RunKey> all = new ArrayList<>();
        runs.newestPartitions(runs.graphsWithRuns(), Integer.MAX_VALUE)
                .forEach((name, partitions) -> partitions.forEach(p -> all.add(new RunKey(name, p))));
        Map<String, Map<String, Integer>> counting = new TreeMap<>();
        for (int from = 0; from < all.size(); from += BATCH) {
            runs.runRecords(all.subList(from, Math.min(all.size(), from + BATCH))).forEach((key, run) -> counting
                    .computeIfAbsent(key.graph(), g -> new LinkedHashMap<>(NO_RUNS))
                    .merge(run.state().wireName(), 1, Integer::sum));
        }
        counting.replaceAll((name, counts) -> Collections.unmodifiableMap(counts));
        return Collections.unmodifiableMap(counting);
    }

    public Map<String, Object> graph(String name) {
        GraphRecord record = definitions.graphRecord(name)
                .orElseThrow(() -> UnadoptedGraphs.notFound(definitions, name, "does not have an adopted definition"));
        Graph g = catalog.get(record.definition()).graph();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("definition", record.definition());
        out.put("schedule", g.schedule().map(RunViews::schedule).orElse(null));
        out.put("catchup", g.catchup().map(d -> d.toSeconds() + "s").orElse(null));
        out.put("partitioning", g.partitioning().configName());
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (Node n : g.nodes()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", n.name());
            m.put("asset", n.produces().orElse(null));
            m.put("upstreams", List.copyOf(g.upstreams(n.name())));
            m.put("triggerRule", n.triggerRule().wireName());
            m.put("pool", n.pool());
            m.put("retries", n.retries());
            m.put("operator", n.operator());
            m.put("leases", n.leases());
            nodes.add(m);
        }
        out.put("nodes", nodes);
        return out;
    }

    /** A schedule as the dialect shows it: names replaced by numbers ({@code mon-fri} → {@code 1-5}). */
    public static String schedule(String expression) {
        try {
            return CronSchedule.parse(expression).normalized();
        } catch (InvalidCronException e) {
            return expression;
        }
    }

    public List<Map<String, Object>> runsOf(String graph, Optional<String> from, int limit) {
        if (definitions.graphRecord(graph).isEmpty() && !runs.graphsWithRuns().contains(graph)) {
            throw UnadoptedGraphs.notFound(definitions, graph, "is unknown");
        }
        List<Map<String, Object>> out = new ArrayList<>();
        Optional<String> cursor = from;
        boolean past = false;
        // an index entry without its run (a start that has not written it yet, a run being expired) is left out,
        // and the page is filled from the entries after it: a page shorter than `limit` is the last one
        while (out.size() < limit) {
            int ask = limit - out.size() + (past ? 1 : 0);
            List<RunKey> keys = keys(graph, cursor, ask);
            boolean startsAtCursor = !keys.isEmpty() && cursor.equals(Optional.of(keys.getFirst().partition().key()));
            List<RunKey> fresh = past && startsAtCursor ? keys.subList(1, keys.size()) : keys;
            // the cursor's own entry may be gone since: then the one asked for beside it is one too many
            fresh = fresh.subList(0, Math.min(fresh.size(), limit - out.size()));
            // the run records alone: a list row shows none of a run's instances or node records, which a page of
            // thousands of runs would otherwise pull from Redis in one pipeline (a malformed record is left out and
            // logged, as in the counts; the run's own view names its fault)
            runs.runRecords(fresh).forEach((key, run) -> out.add(listed(key, run)));
            if (keys.size() < ask || fresh.isEmpty()) {
                break;
            }
            // the last entry looked at: one dropped above as one too many is for the next read
            cursor = Optional.of(fresh.getLast().partition().key());
            past = true;
        }
        return out;
    }

    /** A run as the run list shows it (interfaces §2), in a map the caller may add to (the dashboard's grid row). */
    public static Map<String, Object> listed(RunView v) {
        return listed(v.key(), v.run());
    }

    private static Map<String, Object> listed(RunKey key, GraphRunRecord r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("partition", key.partition().key());
        m.put("state", r.state().wireName());
        m.put("requestedAt", time(r.requestedAtMs()));
        m.put("settledAt", r.settledAtMs().map(RunViews::time).orElse(null));
        m.put("definition", r.definition());
        return m;
    }

    public Map<String, Object> run(String graph, Partition partition) {
        RunKey key = new RunKey(graph, partition);
        RunView v = runs.read(key).orElseThrow(() -> new ApiErrors.NotFound(
                "graph `" + graph + "` does not have a run for partition `" + partition + "`"));
        GraphRunRecord r = v.run();
        // the effective graph: the definition and its current declared growths (docs/dynamic-graphs.md §8.8)
        Graph g = io.swale.run.RunGraphs.of(catalog.get(r.definition()), v);
        Map<String, NodeRecord> records = RunRecords.byNode(g, v);
        Map<String, NodeRecord> current = Readiness.currentRecords(r, records);
        Map<String, NodeState> states = Readiness.nodeStates(g, current);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", graph);
        out.put("partition", partition.key());
        out.put("state", r.state().wireName());
        out.put("requestedAt", time(r.requestedAtMs()));
        out.put("settledAt", r.settledAtMs().map(RunViews::time).orElse(null));
        out.put("definition", r.definition());
        out.put("expectedReruns", r.expectedReruns());
        // the last failure of a repair pass on this run (kept until a pass repairs it cleanly)
        out.put("repairError", runs.repairError(key).map(RunViews::repairError).orElse(null));
        Map<String, List<AttemptRecord>> histories = tasks.histories(key);
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (Node n : g.nodes()) {
            NodeRecord rec = records.get(n.name());
            Optional<Map<String, Object>> instance = activeInstance(v, n.name(), rec, r);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", n.name());
            m.put("pool", n.pool());
            m.put("state", states.get(n.name()).wireName());
            g.grownBy(n.name()).ifPresent(by -> {
                m.put("grownBy", by);
                m.put("grownText", "grown by " + by);
            });
            m.put("instance", instance.orElse(null));
            m.put("record", rec == null ? null : record(rec));
            // the attempts of the instance shown: the active one, else the one that wrote the record
            String shown = instance.map(i -> (String) i.get("runId")).orElse(rec == null ? null : rec.runId());
            m.put("attempts", shown == null ? List.of()
                    : histories.getOrDefault(shown, List.of()).stream().map(RunViews::attempt).toList());
            if (n.isMapped()) {
                m.put("items", items(io.swale.run.MappedProgress.of(v, n, current)));
            }
            nodes.add(m);
        }
        waitingForLeases(g, nodes);
        out.put("nodes", nodes);
        return out;
    }

    /**
     * A pending instance of a node with leases that waits in line, or a pending item of a mapped one (each item is
     * an instance of its own): which resources, in words too.
     */
    @SuppressWarnings("unchecked")
    private void waitingForLeases(Graph g, List<Map<String, Object>> nodes) {
        if (resources == null) {
            return;
        }
        Map<String, Map<String, Object>> pending = new LinkedHashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            if (g.nodes().get(i).leases().isEmpty()) {
                continue;
            }
            List<Object> shown = new ArrayList<>();
            shown.add(nodes.get(i).get("instance"));
            if (nodes.get(i).get("items") instanceof Map<?, ?> items && items.get("list") instanceof List<?> list) {
                shown.addAll(list);
            }
            for (Object o : shown) {
                if (o instanceof Map<?, ?> m && "pending".equals(m.get("state")) && m.get("runId") instanceof String id) {
                    pending.put(id, (Map<String, Object>) m);
                }
            }
        }
        if (pending.isEmpty()) {
            return;
        }
        resources.waitingFor(pending.keySet()).forEach((runId, names) -> {
            Map<String, Object> m = pending.get(runId);
            m.put("waitingFor", names);
            m.put("waitingText", "waiting for lease " + String.join(", ", names.stream().map(n -> "`" + n + "`").toList()));
        });
    }

    private Optional<Map<String, Object>> activeInstance(RunView v, String node, NodeRecord rec, GraphRunRecord run) {
        long rerun = rec == null ? 0 : (rec.succeeded() && run.isCurrent(node, rec) ? -1 : rec.rerun() + 1);
        if (rerun < 0) {
            return Optional.empty();
        }
        TaskInstance i = v.instances().get(v.key().runId(node, rerun));
        if (i == null || !i.status().isActive()) {
            return Optional.empty();
        }
        return Optional.of(instanceView(i));
    }

    /** An active instance's state as the API and the dashboard show it: {@code pending|running|cancelling}. */
    public static String stateOf(TaskInstance i) {
        return switch (i.status()) {
            case RUNNING -> "running";
            case CANCELLING -> "cancelling";
            default -> "pending";
        };
    }

    /**
     * An active instance as the API shows it: its state is one of the contract's {@code pending|running|cancelling}
     * (interfaces §2); one waiting for a retry or its next step is pending, with {@code dueAt} when it is due.
     */
    static Map<String, Object> instanceView(TaskInstance i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runId", i.runId());
        m.put("state", stateOf(i));
        if (i.status() == InstanceStatus.WAITING) {
            i.dueMs().ifPresent(due -> m.put("dueAt", time(due)));
        }
        m.put("attempt", i.attempt());
        m.put("maxAttempts", i.maxAttempts());
        m.put("step", i.step());
        m.put("worker", i.worker().orElse(null));
        m.put("lastError", i.lastError().filter(e -> !e.isEmpty()).orElse(null));
        return m;
    }

    /** A mapped node's items: counts for {@code 7/10}, and each item with its state and run id. */
    private static Map<String, Object> items(io.swale.run.MappedProgress p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total", p.total() < 0 ? null : p.total());
        m.put("done", p.done());
        m.put("succeeded", p.succeeded());
        m.put("failed", p.failed());
        m.put("cancelled", p.cancelled());
        m.put("active", p.active());
        m.put("list", p.items().stream().map(i -> {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("index", i.index());
            item.put("state", i.state());
            item.put("runId", i.runId().orElse(null));
            return item;
        }).toList());
        return m;
    }

    private static Map<String, Object> repairError(RunStore.RepairError e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", time(e.atMs()));
        m.put("pass", e.pass());
        m.put("message", e.message());
        return m;
    }

    private static Map<String, Object> attempt(AttemptRecord a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("attempt", a.attempt());
        m.put("step", a.step());
        m.put("worker", a.worker().orElse(null));
        m.put("startedAt", time(a.startedMs()));
        m.put("endedAt", time(a.endedMs()));
        m.put("startedMs", a.startedMs());
        m.put("endedMs", a.endedMs());
        m.put("outcome", a.outcome());
        m.put("error", a.error().orElse(null));
        return m;
    }

    private static Map<String, Object> record(NodeRecord r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", r.status().wireName());
        m.put("runId", r.runId());
        m.put("rerun", r.rerun());
        m.put("terminatedAt", time(r.terminatedAtMs()));
        m.put("output", r.output().orElse(null));
        m.put("outputOmitted", r.outputOmitted());
        m.put("error", r.error().orElse(null));
        return m;
    }

    private static Map<String, Integer> noRuns() {
        Map<String, Integer> zero = new LinkedHashMap<>();
        for (String state : List.of("active", "complete", "failed", "cancelled")) {
            zero.put(state, 0);
        }
        return Collections.unmodifiableMap(zero);
    }

    private List<RunKey> keys(String graph, Optional<String> from, int limit) {
        return runs.partitions(graph, from, limit).stream().map(p -> new RunKey(graph, p)).toList();
    }

    /** A time as the API and the dashboard write it: RFC 3339 UTC (interfaces §2). */
    public static String time(long ms) {
        return Instant.ofEpochMilli(ms).toString();
    }
}
