package io.swale.api.dashboard;

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
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/**
 * Assets across graphs, from the adopted definitions: which graph and node produces each, the assets it is
 * made from, which nodes consume it, and its newest record: its record in the newest partition (highest key, not
 * the most recently run) among the producer's {@link #LOOKBACK} newest in which the producing node has one.
 */
@Component
public class AssetLineage {
    /** How many of a producer's newest partitions (highest keys) are read to find each asset's newest record. */
    static final int LOOKBACK = 10;

    private final DefinitionStore definitions;
    private final DefinitionCatalog catalog;
    private final RunIndex index;
    private final RunStore runs;

    public AssetLineage(DefinitionStore definitions, DefinitionCatalog catalog, RunIndex index, RunStore runs) {
        this.definitions = definitions;
        this.catalog = catalog;
        this.index = index;
        this.runs = runs;
    }

    public Map<String, Object> lineage() {
        Map<String, Map<String, Object>> assets = new TreeMap<>();
        Map<String, Graph> graphs = new TreeMap<>();
        for (GraphRecord r : definitions.graphRecords().values()) {
            catalog.find(r.definition()).ifPresent(d -> graphs.put(d.graph().name(), d.graph()));
        }
        for (Graph g : graphs.values()) {
            for (Node n : g.nodes()) {
                n.produces().filter(a -> !a.isEmpty()).ifPresent(a -> {
                    Map<String, Object> m = asset(assets, a);
                    m.put("producer", ref(g.name(), n.name()));
                    m.put("upstreams", List.copyOf(n.consumes()));
                });
                for (String a : n.consumes()) {
                    @SuppressWarnings("unchecked")
                    List<Object> consumers = (List<Object>) asset(assets, a).get("consumers");
                    consumers.add(ref(g.name(), n.name()));
                }
            }
        }
        for (Graph g : graphs.values()) {
            newest(g, assets);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graphs", List.copyOf(graphs.keySet()));
        out.put("assets", List.copyOf(assets.values()));
        return out;
    }

    private void newest(Graph g, Map<String, Map<String, Object>> assets) {
        List<RunKey> keys = index.partitionsNewestFirst(g.name(), 0, LOOKBACK).stream().map(p -> new RunKey(g.name(), p))
                .toList();
        List<RunView> views = WholeRuns.whole(runs, keys);
        List<Map<String, NodeRecord>> records = views.stream().map(v -> RunRecords.byNode(g, v)).toList();
        for (Node n : g.nodes()) {
            if (n.produces().filter(a -> !a.isEmpty()).isEmpty()) {
                continue;
            }
            Map<String, Object> a = assets.get(n.produces().get());
            for (int i = 0; i < views.size(); i++) {
                RunView v = views.get(i);
                NodeRecord rec = records.get(i).get(n.name());
                if (rec != null) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("partition", v.key().partition().key());
                    m.put("status", rec.status().wireName());
                    m.put("runId", rec.runId());
                    m.put("terminatedAt", Instant.ofEpochMilli(rec.terminatedAtMs()).toString());
                    a.put("newest", m);
                    break;
                }
            }
        }
    }

    private static Map<String, Object> asset(Map<String, Map<String, Object>> assets, String name) {
        return assets.computeIfAbsent(name, x -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("asset", name);
            m.put("producer", null);
            m.put("upstreams", List.of());
            m.put("consumers", new ArrayList<>());
            m.put("newest", null);
            return m;
        });
    }

    private static Map<String, Object> ref(String graph, String node) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("graph", graph);
        m.put("node", node);
        return m;
    }
}
