package io.swale.api.dashboard;

import io.swale.api.ApiErrors;
import io.swale.api.UnadoptedGraphs;
import io.swale.definition.Definition;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.record.GraphRecord;
import io.swale.record.NodeRecord;
import io.swale.run.DefinitionCatalog;
import io.swale.run.RunRecords;
import io.swale.store.DefinitionStore;
import io.swale.store.RunIndex;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * How long each node ran over the runs of a graph's newest N partitions (highest keys, not the most recently run):
 * per run (oldest partition first) and node, the run time of the
 * attempt that wrote the node's current record (from its instance's start to the record's termination). One
 * pipelined read of N runs; no history is scanned.
 */
@Component
public class DurationTrend {
    private final RunIndex index;
    private final RunStore runs;
    private final DefinitionStore definitions;
    private final DefinitionCatalog catalog;

    public DurationTrend(RunIndex index, RunStore runs, DefinitionStore definitions, DefinitionCatalog catalog) {
        this.index = index;
        this.runs = runs;
        this.definitions = definitions;
        this.catalog = catalog;
    }

    public Map<String, Object> durations(String graph, int count) {
        Optional<GraphRecord> adopted = definitions.graphRecord(graph);
        List<RunKey> keys = index.partitionsNewestFirst(graph, 0, count).stream().map(p -> new RunKey(graph, p)).toList();
        if (adopted.isEmpty() && keys.isEmpty()) {
            throw UnadoptedGraphs.notFound(definitions, graph, "is unknown");
        }
        Set<String> names = new LinkedHashSet<>();
        adopted.flatMap(r -> catalog.find(r.definition())).map(Definition::graph)
                .ifPresent(g -> g.nodes().forEach(n -> names.add(n.name())));
        List<RunView> views = new ArrayList<>(WholeRuns.whole(runs, keys));
        java.util.Collections.reverse(views);
        List<Map<String, Object>> out = new ArrayList<>();
        for (RunView v : views) {
            Optional<Graph> g = catalog.find(v.run().definition()).map(Definition::graph);
            Map<String, Object> nodes = new LinkedHashMap<>();
            g.ifPresent(def -> {
                Map<String, NodeRecord> records = RunRecords.byNode(def, v);
                for (Node n : def.nodes()) {
                    names.add(n.name());
                    NodeRecord rec = records.get(n.name());
                    TaskInstance i = rec == null ? null : v.instances().get(rec.runId());
                    if (rec == null || i == null || i.startedMs().isEmpty()) {
                        continue;
                    }
                    Map<String, Object> d = new LinkedHashMap<>();
                    d.put("ms", Math.max(0, rec.terminatedAtMs() - i.startedMs().get()));
                    d.put("status", rec.status().wireName());
                    d.put("attempt", i.attempt());
                    nodes.put(n.name(), d);
                }
            });
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("partition", v.key().partition().key());
            r.put("state", v.run().state().wireName());
            r.put("nodes", nodes);
            out.add(r);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("graph", graph);
        m.put("nodes", List.copyOf(names));
        m.put("runs", out);
        return m;
    }
}
