package io.swale.api.dashboard;

import io.swale.api.ApiErrors;
import io.swale.api.RunViews;
import io.swale.api.UnadoptedGraphs;
import io.swale.definition.Definition;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.readiness.NodeState;
import io.swale.readiness.Readiness;
import io.swale.record.GraphRecord;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.RunState;
import io.swale.run.DefinitionCatalog;
import io.swale.run.PoolCatalog;
import io.swale.run.RunRecords;
import io.swale.store.DefinitionStore;
import io.swale.store.RunIndex;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/** The read models of the dashboard pages, built on the store and the views the REST API already serves. */
@Component
public class DashboardViews {
    private static final int FILTER_BATCH = 500;
    private final RunViews views;
    private final DefinitionStore definitions;
    private final DefinitionCatalog catalog;
    private final RunStore runs;
    private final RunIndex index;
    private final PoolCatalog pools;
    private final DashboardProperties props;

    public DashboardViews(RunViews views, DefinitionStore definitions, DefinitionCatalog catalog, RunStore runs,
            RunIndex index, PoolCatalog pools, DashboardProperties props) {
        this.views = views;
        this.definitions = definitions;
        this.catalog = catalog;
        this.runs = runs;
        this.index = index;
        this.pools = pools;
        this.props = props;
    }

    /** Every graph as {@code GET /api/v1/graphs} shows it, plus its latest runs, newest first. */
    public List<Map<String, Object>> graphs() {
        return views.graphs(props.recentRuns());
    }

    /**
     * One page of the partitions × nodes grid, newest partition first. Columns are the nodes of the adopted
     * definition, then nodes that only older definitions of the shown runs have.
     */
    public Map<String, Object> grid(String graph, int offset, int limit, GridFilter filter) {
        Optional<GraphRecord> adopted = definitions.graphRecord(graph);
        long total = index.runCount(graph, filter.from(), filter.to());
        long all = index.runCounts(List.of(graph)).getOrDefault(graph, 0L);
        if (adopted.isEmpty() && all == 0) {
            throw UnadoptedGraphs.notFound(definitions, graph, "is unknown");
        }
        Selection selection = select(graph, offset, limit, filter);
        List<RunView> page = WholeRuns.whole(runs, selection.keys());

        Map<String, Map<String, Object>> columns = new LinkedHashMap<>();
        Optional<Graph> current = adopted.flatMap(r -> catalog.find(r.definition())).map(Definition::graph);
        current.ifPresent(g -> g.nodes().forEach(n -> columns.put(n.name(), column(g, n))));

        List<Map<String, Object>> rows = new ArrayList<>();
        for (RunView v : page) {
            GraphRunRecord r = v.run();
            // the run's effective graph, with the nodes it grew (docs/dynamic-graphs.md §8.7), as the run view has it
            Optional<Graph> g = catalog.find(r.definition()).map(d -> io.swale.run.RunGraphs.of(d, v));
            Map<String, Object> cells = new LinkedHashMap<>();
            g.ifPresent(def -> {
                Map<String, NodeRecord> records = RunRecords.byNode(def, v);
                Map<String, NodeState> states = Readiness.nodeStates(def, Readiness.currentRecords(r, records));
                for (Node n : def.nodes()) {
                    columns.computeIfAbsent(n.name(), x -> column(def, n));
                    Map<String, Object> cell = new LinkedHashMap<>();
                    cell.put("state", states.get(n.name()).wireName());
                    cell.put("instance", activeInstance(v, n.name(), records.get(n.name())).map(RunViews::stateOf)
                            .orElse(null));
                    cells.put(n.name(), cell);
                }
            });
            // a grid row is the run as the run list shows it, with its cells
            Map<String, Object> row = RunViews.listed(v);
            row.put("cells", cells);
            rows.add(row);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", graph);
        out.put("definition", adopted.map(GraphRecord::definition).orElse(null));
        out.put("schedule", current.flatMap(Graph::schedule).map(RunViews::schedule).orElse(null));
        out.put("partitioning", current.map(g -> g.partitioning().configName()).orElse(null));
        out.put("nodes", List.copyOf(columns.values()));
        out.put("runsOfGraph", all);
        out.put("total", total);
        out.put("state", filter.state().map(RunState::wireName).orElse(null));
        out.put("from", filter.from().orElse(null));
        out.put("to", filter.to().orElse(null));
        // with a state filter: how many match, when the whole range was read to fill this page; else null
        out.put("matched", filter.state().isEmpty() ? Long.valueOf(total) : selection.matched().orElse(null));
        out.put("more", selection.more());
        out.put("offset", offset);
        out.put("limit", limit);
        out.put("runs", rows);
        return out;
    }

    /**
     * Which runs the grid shows: only those in {@code state} (when given), with partitions from {@code from} to
     * {@code to} (both included, either open).
     */
    public record GridFilter(Optional<RunState> state, Optional<String> from, Optional<String> to) {}

    /** The runs of a page, whether more follow, and how many match when every run of the range was read. */
    private record Selection(List<RunKey> keys, boolean more, Optional<Long> matched) {}

    /**
     * A page of the range, newest first. A state filter reads only run records, a batch at a time, until the
     * page and one more match are found: a page deep into a rare state costs the runs read to reach it.
     */
    private Selection select(String graph, int offset, int limit, GridFilter f) {
        if (f.state().isEmpty()) {
            List<RunKey> keys = index.partitionsNewestFirst(graph, f.from(), f.to(), offset, limit).stream()
                    .map(p -> new RunKey(graph, p)).toList();
            long total = index.runCount(graph, f.from(), f.to());
            return new Selection(keys, offset + keys.size() < total, Optional.of(total));
        }
        List<RunKey> keys = new ArrayList<>();
        long matched = 0;
        int at = 0;
        while (true) {
            List<RunKey> batch = index.partitionsNewestFirst(graph, f.from(), f.to(), at, FILTER_BATCH).stream()
                    .map(p -> new RunKey(graph, p)).toList();
            Map<RunKey, GraphRunRecord> records = runs.runRecords(batch);
            for (RunKey k : batch) {
                GraphRunRecord r = records.get(k);
                if (r == null || r.state() != f.state().get()) {
                    continue;
                }
                if (matched >= offset && keys.size() < limit) {
                    keys.add(k);
                } else if (keys.size() == limit) {
                    return new Selection(keys, true, Optional.empty());
                }
                matched++;
            }
            if (batch.size() < FILTER_BATCH) {
                return new Selection(keys, false, Optional.of(matched));
            }
            at += FILTER_BATCH;
        }
    }

    /**
     * The run as {@code GET /api/v1/graphs/{graph}/runs/{partition}} shows it, each node with what the
     * run page also draws: its upstreams, asset, operator, the attempt of its record or active instance, and
     * when that instance started.
     */
    public Map<String, Object> run(String graph, Partition partition) {
        Map<String, Object> base = views.run(graph, partition);
        RunView v = runs.read(new RunKey(graph, partition)).orElseThrow(() -> new ApiErrors.NotFound(
                "graph `" + graph + "` does not have a run for partition `" + partition + "`"));
        Graph g = io.swale.run.RunGraphs.of(catalog.get(v.run().definition()), v);
        Map<String, NodeRecord> records = RunRecords.byNode(g, v);
        Map<String, Object> out = new LinkedHashMap<>(base);
        List<Map<String, Object>> nodes = new ArrayList<>();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> baseNodes = (List<Map<String, Object>>) base.get("nodes");
        for (Map<String, Object> bn : baseNodes) {
            String name = (String) bn.get("name");
            Map<String, Object> m = new LinkedHashMap<>(bn);
            g.node(name).ifPresent(n -> {
                m.put("asset", n.produces().orElse(null));
                m.put("operator", n.operator());
                m.put("triggerRule", n.triggerRule().wireName());
                m.put("upstreams", List.copyOf(g.upstreams(name)));
            });
            NodeRecord rec = records.get(name);
            Optional<TaskInstance> active = activeInstance(v, name, rec);
            Optional<TaskInstance> shown = active.or(() -> rec == null ? Optional.empty()
                    : Optional.ofNullable(v.instances().get(rec.runId())));
            m.put("attempt", shown.map(TaskInstance::attempt).orElse(null));
            m.put("maxAttempts", shown.map(TaskInstance::maxAttempts).orElse(null));
            m.put("startedAt", shown.flatMap(TaskInstance::startedMs).map(RunViews::time).orElse(null));
            m.put("lastError", active.flatMap(TaskInstance::lastError).orElse(null));
            nodes.add(m);
        }
        out.put("nodes", nodes);
        return out;
    }

    /** Pools with their slots and the instances that run in each now, derived from the active runs. */
    public Map<String, Object> running() {
        return runningByPool(RunningNow.derive(WholeRuns.withInstances(runs, runs.activeRuns())).values());
    }

    /** Pools known here (configured or seen running) with the given instances grouped under them. */
    Map<String, Object> runningByPool(Iterable<RunningInstance> running) {
        Map<String, List<Map<String, Object>>> byPool = new TreeMap<>();
        pools.pools().keySet().forEach(p -> byPool.put(p, new ArrayList<>()));
        for (RunningInstance r : running) {
            byPool.computeIfAbsent(r.pool(), p -> new ArrayList<>()).add(r.toJson());
        }
        List<Map<String, Object>> out = new ArrayList<>();
        Map<String, Integer> slots = pools.pools();
        byPool.forEach((pool, list) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", pool);
            m.put("slots", slots.get(pool));
            m.put("running", list);
            out.add(m);
        });
        return Map.of("pools", out);
    }

    private static Map<String, Object> column(Graph g, Node n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", n.name());
        m.put("asset", n.produces().orElse(null));
        m.put("upstreams", List.copyOf(g.upstreams(n.name())));
        m.put("triggerRule", n.triggerRule().wireName());
        m.put("pool", n.pool());
        m.put("operator", n.operator());
        return m;
    }

    /** The node's active instance: r0 without a record, none for a current success, else the next rerun. */
    private static Optional<TaskInstance> activeInstance(RunView v, String node, NodeRecord rec) {
        long rerun = rec == null ? 0 : (rec.succeeded() && v.run().isCurrent(node, rec) ? -1 : rec.rerun() + 1);
        if (rerun < 0) {
            return Optional.empty();
        }
        TaskInstance i = v.instances().get(v.key().runId(node, rerun));
        return i != null && i.status().isActive() ? Optional.of(i) : Optional.empty();
    }

}
