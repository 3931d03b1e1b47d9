package io.swale.run;

import io.swale.definition.Definition;
import io.swale.definition.Growths;
import io.swale.graph.Graph;
import io.swale.graph.ItemName;
import io.swale.graph.Node;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.task.GrowthPlanner;
import io.swale.task.TaskIdentity;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Checks an output's {@code swale.grow} against the run's effective graph without the declaring node's own earlier
 * growth (docs/dynamic-graphs.md §8.2), before the record is written: the growth is stored with the record, or
 * the node fails with every fault. A grown node's pool must be served as a definition's must: created where pools
 * are created on demand, else a fault, where the instance would have waited for a worker no one runs.
 */
public final class DeclaredGrowth implements GrowthPlanner {
    private final DefinitionCatalog definitions;
    private final RunStore runs;
    private final PoolCatalog pools;

    public DeclaredGrowth(DefinitionCatalog definitions, RunStore runs, PoolCatalog pools) {
        this.definitions = definitions;
        this.runs = runs;
        this.pools = pools;
    }

    @Override
    public Plan plan(TaskIdentity identity, JsonNode output) {
        Optional<JsonNode> grow = Growths.declared(output);
        // an item's output is part of its node's list, not a growth of the graph
        if (grow.isEmpty() || ItemName.parse(identity.node()).isPresent()) {
            return new Plan.None();
        }
        Optional<RunView> view = runs.read(identity.runKey());
        if (view.isEmpty()) {
            return new Plan.None();
        }
        Definition definition = definitions.get(view.get().run().definition());
        Graph current = RunGraphs.without(definition, view.get(), identity.node());
        if (!current.hasNode(identity.node())) {
            return new Plan.Fail("InvalidGrowth: node `" + identity.node() + "` is no longer part of the run's graph"
                    + " (the growth that added it was replaced), so it cannot grow it");
        }
        return switch (definitions.loader().checkGrowth(current, identity.node(), identity.rerun(), grow.get())) {
            case Growths.Check.Valid v -> unservedPools(current, v.graph(), identity.node())
                    .<Plan>map(Plan.Fail::new).orElseGet(() -> new Plan.Grow(v.stored()));
            case Growths.Check.Invalid i -> new Plan.Fail(i.error());
        };
    }

    private Optional<String> unservedPools(Graph current, Graph grown, String by) {
        List<Node> added = grown.nodes().stream().filter(n -> !current.hasNode(n.name())).toList();
        pools.ensure(new LinkedHashSet<>(added.stream().map(Node::pool).toList()));
        List<String> faults = added.stream().filter(n -> !pools.isConfigured(n.pool()))
                .map(n -> "InvalidGrowth: grown node `" + n.name() + "` (grown by `" + by + "`) uses pool `" + n.pool()
                        + "`, which is not configured (swale.pools)")
                .toList();
        return faults.isEmpty() ? Optional.empty() : Optional.of(String.join("\n", faults));
    }
}
