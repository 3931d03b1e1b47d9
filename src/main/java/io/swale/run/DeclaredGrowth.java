package io.swale.run;

import io.swale.definition.Definition;
import io.swale.definition.DefinitionLoader;
import io.swale.definition.Growths;
import io.swale.graph.Graph;
import io.swale.graph.ItemName;
import io.swale.graph.Node;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.task.GrowthPlanner;
import io.swale.task.TaskIdentity;
import java.util.LinkedHashSet;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Checks an output's {@code swale.grow} against the run's effective graph without the declaring node's own earlier
 * growth (docs/dynamic-graphs.md §8.2), before the record is written: the growth is stored with the record, or
 * the node fails with every fault. A grown node's pool is created where pools are created on demand, as a
 * published definition's is. Nothing is refused for a pool this worker does not know: a worker may serve and know
 * only its own pools (the chart's pool Deployments do), and the scheduler judges the pool at submission.
 */
public final class DeclaredGrowth implements GrowthPlanner {
    private final DefinitionCatalog definitions;
    private final RunStore runs;
    private final PoolCatalog pools;
    // the catalog's publishing loader: in strict resource mode a grown node's literal leases need declared names
    private final DefinitionLoader loader;

    public DeclaredGrowth(DefinitionCatalog definitions, RunStore runs, PoolCatalog pools) {
        this.definitions = definitions;
        this.runs = runs;
        this.pools = pools;
        this.loader = definitions.publishingLoader();
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
        return switch (loader.checkGrowth(current, identity.node(), identity.rerun(), grow.get())) {
            case Growths.Check.Valid v -> {
                createPools(current, v.graph());
                yield new Plan.Grow(v.stored());
            }
            case Growths.Check.Invalid i -> new Plan.Fail(i.error());
        };
    }

    private void createPools(Graph current, Graph grown) {
        pools.ensure(new LinkedHashSet<>(grown.nodes().stream().filter(n -> !current.hasNode(n.name()))
                .map(Node::pool).toList()));
    }
}
