package io.swale.api;

import io.swale.definition.Definition;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.readiness.NodeState;
import io.swale.readiness.Readiness;
import io.swale.record.AdminRequest;
import io.swale.record.GraphRecord;
import io.swale.record.NodeRecord;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import io.swale.record.RunState;
import io.swale.request.Requests;
import io.swale.run.DefinitionCatalog;
import io.swale.run.RunRecords;
import io.swale.store.DefinitionStore;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * A backfill over a range of partitions: start every partition without a run, and with mode {@code failed}
 * also rerun the failed and cancelled nodes of failed runs through the normal rerun path. A dry run only
 * answers the plan.
 */
@Component
public class Backfill {
    /** What the backfill does to one partition. */
    public sealed interface Step {
        Partition partition();

        record Start(Partition partition) implements Step {}

        record Rerun(Partition partition, List<String> nodes) implements Step {}

        record Skip(Partition partition, RunState state) implements Step {}
    }

    /** One rerun the backfill requested, with its answer. */
    public record RerunDone(Partition partition, String node, RequestOutcome outcome) {}

    public record Result(List<Step> plan, List<Partition> started, List<RerunDone> reruns) {}

    private static final int BATCH = 500;
    private final DefinitionStore definitions;
    private final DefinitionCatalog catalog;
    private final RunStore runs;
    private final Requests requests;

    public Backfill(DefinitionStore definitions, DefinitionCatalog catalog, RunStore runs, Requests requests) {
        this.definitions = definitions;
        this.catalog = catalog;
        this.runs = runs;
        this.requests = requests;
    }

    public Graph adoptedGraph(String graph) {
        GraphRecord record = definitions.graphRecord(graph)
                .orElseThrow(() -> UnadoptedGraphs.notFound(definitions, graph, "does not have an adopted definition"));
        return catalog.get(record.definition()).graph();
    }

    public Result run(String graph, List<Partition> partitions, boolean failedToo, boolean dryRun) {
        List<Step> plan = plan(graph, partitions, failedToo);
        List<Partition> started = new ArrayList<>();
        List<RerunDone> reruns = new ArrayList<>();
        if (dryRun) {
            return new Result(plan, started, reruns);
        }
        List<Partition> toStart = plan.stream().filter(s -> s instanceof Step.Start).map(Step::partition).toList();
        if (!toStart.isEmpty()) {
            RequestRecord r = requests.handle(Optional.empty(), new AdminRequest.Start(graph, toStart));
            if (r.outcome() instanceof RequestOutcome.Started s) {
                started.addAll(s.partitions());
            }
        }
        for (Step s : plan) {
            if (s instanceof Step.Rerun rerun) {
                for (String node : rerun.nodes()) {
                    RequestRecord r = requests.handle(Optional.empty(), new AdminRequest.Rerun(graph, rerun.partition(), node));
                    reruns.add(new RerunDone(rerun.partition(), node, r.outcome()));
                }
            }
        }
        return new Result(plan, started, reruns);
    }

    private List<Step> plan(String graph, List<Partition> partitions, boolean failedToo) {
        List<Step> plan = new ArrayList<>();
        for (int from = 0; from < partitions.size(); from += BATCH) {
            List<RunKey> keys = partitions.subList(from, Math.min(partitions.size(), from + BATCH)).stream()
                    .map(p -> new RunKey(graph, p)).toList();
            var records = runs.runRecords(keys);
            for (RunKey key : keys) {
                var run = records.get(key);
                if (run == null) {
                    plan.add(new Step.Start(key.partition()));
                } else if (failedToo && run.state() == RunState.FAILED) {
                    List<String> nodes = failedNodes(key);
                    plan.add(nodes.isEmpty() ? new Step.Skip(key.partition(), run.state())
                            : new Step.Rerun(key.partition(), nodes));
                } else {
                    plan.add(new Step.Skip(key.partition(), run.state()));
                }
            }
        }
        return plan;
    }

    /** Nodes whose current record failed or was cancelled: rerunning them lets their blocked downstreams run. */
    private List<String> failedNodes(RunKey key) {
        Optional<RunView> view = runs.read(key);
        if (view.isEmpty()) {
            return List.of();
        }
        Definition d = catalog.get(view.get().run().definition());
        Graph g = io.swale.run.RunGraphs.of(d, view.get());
        Map<String, NodeRecord> records = RunRecords.byNode(g, view.get());
        Map<String, NodeState> states = Readiness.nodeStates(g, Readiness.currentRecords(view.get().run(), records));
        List<String> out = new ArrayList<>();
        for (Node n : g.nodes()) {
            NodeState s = states.get(n.name());
            if (s == NodeState.FAILED || s == NodeState.CANCELLED) {
                out.add(n.name());
            }
        }
        return out;
    }
}
