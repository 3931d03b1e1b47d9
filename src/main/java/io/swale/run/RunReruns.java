package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.ItemName;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.logging.LogContext;
import io.swale.readiness.Readiness;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.RunState;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskStore;
import io.swale.task.SwaleException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rerun of one node of a graph run (spec §7.8), or of a mapped node or one of its items: expects the rerun in
 * the run record with a compare-and-put, then submits it. Re-reads Redis on each attempt, so a lost race is
 * retried and a repeated request answers as the first did.
 */
public final class RunReruns {
    private static final Logger log = LoggerFactory.getLogger(RunReruns.class);
    private static final int CAS_ATTEMPTS = 8;

    private final DefinitionCatalog definitions;
    private final RunStore runs;
    private final TaskStore tasks;
    private final Submission submission;
    private final Clock clock;
    private final GraphRuns graphRuns;
    private final RunCancellation cancellation;

    public RunReruns(DefinitionCatalog definitions, RunStore runs, TaskStore tasks, Submission submission, Clock clock,
            GraphRuns graphRuns, RunCancellation cancellation) {
        this.definitions = definitions;
        this.runs = runs;
        this.tasks = tasks;
        this.submission = submission;
        this.clock = clock;
        this.graphRuns = graphRuns;
        this.cancellation = cancellation;
    }

    /** Rerun of one node (spec §7.8). */
    public RerunOutcome rerun(String graphName, Partition partition, String nodeName) {
        return rerun(graphName, partition, nodeName, runId -> Optional.empty());
    }

    /**
     * Rerun of one node; {@code request} gives the request record to commit atomically with the expectation the
     * rerun puts, or with the submission when the expectations were already in place (spec §10, §14 #18).
     */
    public RerunOutcome rerun(String graphName, Partition partition, String nodeName,
            Function<String, Optional<TaskStore.RequestWrite>> request) {
        RunKey key = new RunKey(graphName, partition);
        boolean reactivated = false;
        boolean cancelFinished = false;
        Optional<String> answered = Optional.empty();
        for (int attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
            RunView view = runs.read(key).orElseThrow(() -> new SwaleException.UnknownGraphRun(graphName, partition.key()));
            GraphRunRecord run = view.run();
            if (!reactivated && !cancelFinished && run.state() == RunState.CANCELLED) {
                // the cancel came first (spec §10): the instances it has not reached yet (its own step failed, or this
                // rerun overtook it) end with it now, while the run still reads cancelled; once the put reactivates
                // the run, a pending one would be claimed and a running one would keep its result
                cancelFinished = true;
                if (cancellation.cancelInstances(view) > 0) {
                    continue;
                }
            }
            if (reactivated && run.state() == RunState.CANCELLED && answered.isPresent()) {
                // the request record committed with the expectations, before the cancel: both applied, in arrival
                // order, and the recorded answer stands; the cancel left the rerun's instance unsubmitted
                return new RerunOutcome.Submitted(answered.get());
            }
            if (reactivated && run.state() == RunState.CANCELLED) {
                // cancelled after this rerun made the run active, by a request that came later: it stands (spec
                // §10, arrival order). The refusal is permanent, so it is recorded: a retry of this request that
                // found it transient would reactivate the run and undo the cancel
                throw new SwaleException.CancelledMeanwhile(graphName, partition.key(), nodeName);
            }
            Graph graph = RunGraphs.of(definitions, view);
            Optional<ItemName> item = ItemName.parse(nodeName);
            String baseName = item.map(ItemName::node).orElse(nodeName);
            Node node = graph.node(baseName).filter(n -> item.isEmpty() || n.isMapped())
                    .orElseThrow(() -> new SwaleException.UnknownNode(graphName, nodeName));
            if (node.isMapped()) {
                Optional<RerunOutcome> outcome = rerunMapped(view, graph, node, item.map(ItemName::index), request);
                if (outcome.isPresent()) {
                    return outcome.get();
                }
                continue;
            }
            Map<String, NodeRecord> records = RunRecords.byNode(graph, view);
            NodeRecord record = records.get(nodeName);
            if (record == null) {
                return new RerunOutcome.NoRecord(nodeName);
            }
            SortedMap<String, Long> expected = new TreeMap<>(run.expectedReruns());
            if (record.succeeded() && run.isCurrent(nodeName, record)) {
                MappedReruns.expectScope(view, graph, records, expected, nodeName);
            }
            GraphRunRecord draft = new GraphRunRecord(run.definition(), run.requestedAtMs(), RunState.ACTIVE,
                    Optional.empty(), expected);
            Map<String, NodeRecord> current = Readiness.currentRecords(draft, records);
            if (!Readiness.isReady(graph, nodeName, current)) {
                return new RerunOutcome.NotReady(nodeName);
            }
            // the expectations on the nodes a rerun takes out leave the graph after it as it is
            Graph after = RunGraphs.of(definitions, withRun(view, draft));
            draft = expectingReplaced(view, graph, after, draft, records);
            // the put enters the run in the active-runs index atomically. When it supersedes the node's record, it
            // commits the request record with that expectation (spec §14 #18), as a mapped node's rerun does: should
            // the submission then fail, the reconciler submits the node, and a retry answers what it did.
            // A failed or cancelled node gets no expectation (spec §7.8): its record commits with the submission,
            // and a put that only reactivates the run records nothing the reconciler would not carry out
            if (!draft.equals(run)) {
                Optional<TaskStore.RequestWrite> write = draft.isCurrent(nodeName, record)
                        ? Optional.empty() : request.apply(key.runId(nodeName, record.rerun() + 1));
                boolean committed = write.isPresent()
                        ? tasks.compareAndPutRun(key, view.version(), draft, write.get())
                        : runs.compareAndPut(key, view.version(), draft);
                if (!committed) {
                    continue;
                }
                if (write.isPresent()) {
                    answered = Optional.of(key.runId(nodeName, record.rerun() + 1));
                }
            }
            reactivated = true;
            ReplacedGrowths.cancel(view, graph, after, records, cancellation);
            // the node and its upstreams as the run's effective graph has them after this rerun, as an advance would
            // submit it: a downstream of a declaring node waits on the grown leaves too, and a grown node is in no
            // definition. A record of another definition than the run's (none is written today) reruns as that
            // definition has the node (§7.8 step 7)
            Graph recordedGraph = definitions.get(record.definition()).graph();
            Graph effective = record.definition().equals(run.definition()) || !recordedGraph.hasNode(nodeName)
                    ? (after.hasNode(nodeName) ? after : graph) : recordedGraph;
            Node effectiveNode = effective.node(nodeName).orElse(node);
            Submission.Result r;
            try {
                r = submission.submit(effective, record.definition(), partition, effectiveNode, record.rerun() + 1,
                        current, OptionalLong.of(Submission.epochUs(clock)), request);
            } catch (SwaleException.InputMismatch e) {
                // an earlier rerun at that count still runs, on the inputs of its time: the id is known, so the
                // answer is Active (spec §7.8 step 7); an input mismatch is a listener's fault, not a request's (§7.12)
                r = new Submission.Result(key.runId(nodeName, record.rerun() + 1), false);
            }
            if (r.runInactive()) {
                // the run settled or was cancelled since it was read: read it again, never answer submitted
                continue;
            }
            try (LogContext ignored = LogContext.of(graphName, partition.key(), nodeName, r.runId())) {
                log.info("rerun graph={} partition={} node={} runId={} new={}", graphName, partition, nodeName,
                        r.runId(), r.isNew());
            }
            return r.isNew() ? new RerunOutcome.Submitted(r.runId()) : new RerunOutcome.Active(r.runId());
        }
        throw new SwaleException.Contended(graphName, partition.key());
    }

    /**
     * Rerun of a mapped node or one of its items: the expectations are planned by {@link MappedReruns}, put with
     * a compare-and-put (with the request record, when given, in the same script), then the items are submitted
     * as for any ready mapped node. Empty when the put lost.
     */
    private Optional<RerunOutcome> rerunMapped(RunView view, Graph graph, Node node, Optional<Integer> index,
            Function<String, Optional<TaskStore.RequestWrite>> request) {
        switch (MappedReruns.plan(view, graph, node, index)) {
            case MappedReruns.Plan.Answer a -> {
                return Optional.of(a.outcome());
            }
            case MappedReruns.Plan.Put put -> {
                Map<String, NodeRecord> records = RunRecords.byNode(graph, view);
                Graph after = RunGraphs.of(definitions, withRun(view, put.draft()));
                GraphRunRecord draft = expectingReplaced(view, graph, after, put.draft(), records);
                Optional<TaskStore.RequestWrite> write = request.apply(put.answerId());
                boolean committed = write.isPresent()
                        ? tasks.compareAndPutRun(view.key(), view.version(), draft, write.get())
                        : runs.compareAndPut(view.key(), view.version(), draft);
                if (!committed) {
                    return Optional.empty();
                }
                ReplacedGrowths.cancel(view, graph, after, records, cancellation);
                try (LogContext ignored = LogContext.run(view.key().graph(), view.key().partition().key())) {
                    log.info("rerun of mapped node graph={} partition={} node={} item={} id={}", view.key().graph(),
                            view.key().partition(), node.name(), index.map(String::valueOf).orElse("all"),
                            put.answerId());
                }
                // submit what may run now; a crash here is repaired by the reconciler, which finds the node ready
                runs.read(view.key()).ifPresent(fresh -> graphRuns.advance(fresh, List.of(node.name())));
                return Optional.of(new RerunOutcome.Submitted(put.answerId()));
            }
        }
    }

    /**
     * {@code draft} with the expectations of the grown nodes it takes out of {@code before} (leaving {@code after})
     * while they run ({@link ReplacedGrowths#expect}).
     */
    private static GraphRunRecord expectingReplaced(RunView view, Graph before, Graph after, GraphRunRecord draft,
            Map<String, NodeRecord> records) {
        SortedMap<String, Long> expected = new TreeMap<>(draft.expectedReruns());
        ReplacedGrowths.expect(view, before, after, records, expected);
        return expected.equals(draft.expectedReruns()) ? draft : draft.withExpectedReruns(expected);
    }

    private static RunView withRun(RunView view, GraphRunRecord run) {
        return new RunView(view.key(), view.version(), run, view.nodeRecords(), view.instances(), view.growths());
    }
}
