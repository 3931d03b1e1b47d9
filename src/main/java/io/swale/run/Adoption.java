package io.swale.run;

import io.swale.definition.Definition;
import io.swale.graph.Node;
import io.swale.record.GraphRecord;
import io.swale.store.DefinitionStore.Refusal;
import io.swale.store.DefinitionStore;
import io.swale.task.SwaleException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync pass (spec §4.5): turns current pointers into graph records, refusing a definition whose
 * pools are unknown, whose name differs, or whose assets another adopted graph produces.
 */
public final class Adoption {
    private static final Logger log = LoggerFactory.getLogger(Adoption.class);

    /** What one pass adopted and refused. */
    public record Report(List<String> adopted, Map<String, String> refused) {}

    private final DefinitionStore store;
    private final DefinitionCatalog catalog;
    private final PoolCatalog pools;
    private final Clock clock;

    public Adoption(DefinitionStore store, DefinitionCatalog catalog, PoolCatalog pools, Clock clock) {
        this.store = store;
        this.catalog = catalog;
        this.pools = pools;
        this.clock = clock;
    }

    public synchronized Report sync() {
        SortedMap<String, String> pointers = store.currentPointers();
        SortedMap<String, GraphRecord> records = store.graphRecords();
        Map<String, String> assetOwners = new HashMap<>();
        Map<String, String> pending = new java.util.TreeMap<>();
        records.forEach((graph, record) -> catalog.find(record.definition())
                .ifPresent(d -> ownAssets(assetOwners, graph, d)));
        pointers.forEach((graph, hash) -> {
            GraphRecord record = records.get(graph);
            if (record == null || !record.definition().equals(hash)) {
                pending.put(graph, hash);
            }
        });
        List<String> adopted = new ArrayList<>();
        Map<String, String> refused = new java.util.TreeMap<>();
        Map<String, Refusal> known = store.refusals();
        // A refusal whose graph is no longer pending (its pointer went back to the adopted hash) is over.
        known.keySet().stream().filter(g -> !pending.containsKey(g)).forEach(store::clearRefusal);
        for (Map.Entry<String, String> p : pending.entrySet()) {
            String graph = p.getKey();
            String hash = p.getValue();
            Optional<String> reason = refusal(graph, hash, assetOwners);
            if (reason.isPresent()) {
                refused.put(graph, reason.get());
                Refusal previous = known.get(graph);
                if (previous == null || !previous.hash().equals(hash)) {
                    log.warn("adoption refused graph={} definition={} reason={}", graph, hash, reason.get());
                    store.putRefusal(graph, new Refusal(hash, reason.get(), clock.millis()));
                }
                continue;
            }
            store.putGraphRecord(graph, new GraphRecord(hash, clock.millis()));
            store.clearRefusal(graph);
            assetOwners.values().removeIf(graph::equals);
            ownAssets(assetOwners, graph, catalog.get(hash));
            adopted.add(graph);
            log.info("adopted graph={} definition={}", graph, hash);
        }
        return new Report(adopted, refused);
    }

    private Optional<String> refusal(String graph, String hash, Map<String, String> assetOwners) {
        Definition d;
        try {
            d = catalog.get(hash);
        } catch (SwaleException.UnknownDefinition e) {
            return Optional.of("definition `" + hash + "` is absent");
        } catch (UnloadableDefinitionException e) {
            // a text that does not load, or not under its own hash: the definition's fault, so a refusal; any
            // other failure is the store's and fails the whole pass, which the next interval retries (spec §4.5)
            return Optional.of("definition `" + hash + "` does not load: " + e.getMessage());
        }
        if (!d.graph().name().equals(graph)) {
            return Optional.of("the definition names graph `" + d.graph().name() + "`");
        }
        pools.ensure(new java.util.LinkedHashSet<>(d.graph().pools()));
        for (Node n : d.graph().nodes()) {
            if (!pools.isConfigured(n.pool())) {
                return Optional.of("node `" + n.name() + "` uses pool `" + n.pool() + "`, which is not configured");
            }
        }
        for (Node n : d.graph().nodes()) {
            if (n.produces().isPresent()) {
                String owner = assetOwners.get(n.produces().get());
                if (owner != null && !owner.equals(graph)) {
                    return Optional.of("node `" + n.name() + "` produces asset `" + n.produces().get()
                            + "`, which graph `" + owner + "` produces");
                }
            }
        }
        return Optional.empty();
    }

    private static void ownAssets(Map<String, String> owners, String graph, Definition d) {
        d.graph().nodes().forEach(n -> n.produces().ifPresent(a -> owners.putIfAbsent(a, graph)));
    }
}
