package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.ItemName;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.logging.LogContext;
import io.swale.readiness.NodeState;
import io.swale.readiness.Readiness;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.RunState;
import io.swale.store.DefinitionStore;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskStore;
import io.swale.task.EventPublisher;
import io.swale.task.SwaleException;
import io.swale.task.SwaleMetrics;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's actions on graph runs: start (made by {@link RunStarts}), advance and settle (spec §7); reruns
 * are in {@link RunReruns}, cancels in {@link RunCancellation}. Every action re-reads Redis and is idempotent, so duplicate, late or lost
 * Kafka messages change nothing.
 */
public final class GraphRuns {
    private static final Logger log = LoggerFactory.getLogger(GraphRuns.class);

    /** The result of start_run. */
    public record Started(boolean started, List<String> submitted) {}

    /** The result of advance: new submissions, and whether this call settled the run. */
    public record Advanced(int submitted, boolean settled) {}

    private final DefinitionCatalog definitions;
    private final RunStore runs;
    private final Submission submission;
    private final Clock clock;
    private final SwaleMetrics metrics;
    private final MappedNodes mapped;
    private final RunSettlement settlement;
    private final RunStarts starts;

    public GraphRuns(DefinitionCatalog definitions, DefinitionStore definitionStore, RunStore runs, TaskStore tasks,
            Submission submission, Clock clock, SwaleMetrics metrics) {
        this.definitions = definitions;
        this.runs = runs;
        this.submission = submission;
        this.clock = clock;
        this.metrics = metrics;
        this.mapped = new MappedNodes(tasks, submission, clock, metrics);
        this.settlement = new RunSettlement(runs, clock, metrics);
        this.starts = new RunStarts(definitions, definitionStore, runs, submission, clock, metrics);
    }

    /** Creates the run (create-only) and submits every root at rerun 0. */
    public Started startRun(String hash, Partition partition) {
        return starts.startRun(hash, partition);
    }

    /** Starts each partition with the graph record's definition; returns those actually started. */
    public List<Partition> startRuns(String graph, List<Partition> partitions) {
        return starts.startRuns(graph, partitions);
    }

    /** Handles a task-terminated event: advances the downstreams of the node, which also settles. */
    public void onTaskTerminated(RunKey key, String node) {
        onTasksTerminated(key, List.of(node));
    }

    /**
     * Handles the task-terminated events of several nodes of one run with one read: advances the union of
     * their downstreams, which also settles.
     */
    public void onTasksTerminated(RunKey key, List<String> nodes) {
        onTasksTerminated(runs.read(key), nodes);
    }

    /**
     * The runs of several keys, read in one round trip, for {@link #onTasksTerminated(List, Map)}: the
     * events of one poll name many runs, and each would otherwise cost a read of its own.
     */
    public Map<RunKey, RunStore.Read> readRuns(List<RunKey> keys) {
        Map<RunKey, RunStore.Read> out = new HashMap<>();
        runs.readEach(keys).forEach(r -> out.put(r.key(), r));
        return out;
    }

    private void onTasksTerminated(Optional<RunView> view, List<String> nodes) {
        if (view.isEmpty() || view.get().run().state() != RunState.ACTIVE) {
            return;
        }
        candidates(RunGraphs.of(definitions, view.get()), nodes).ifPresent(c -> advance(view.get(), c));
    }

    /** The nodes that ended in one run, from the events of one poll. */
    public record Ended(RunKey key, List<String> nodes) {}

    /**
     * Advances the runs of one poll's events, read by {@link #readRuns}, with the submissions of them all sent to
     * Redis in one round trip, where a run advanced alone pays a round trip of its own, and then the settles of
     * those that ended in one more. Every run goes as far
     * as it can before any failure is reported: the failures come back by run, in the order of {@code ended},
     * for the caller to retry (advancing is idempotent). A store that does not answer the submissions throws,
     * and then none of the instances they carried has been dispatched.
     */
    public List<Optional<RuntimeException>> onTasksTerminated(List<Ended> ended, Map<RunKey, RunStore.Read> read) {
        List<Optional<RuntimeException>> failures =
                new ArrayList<>(Collections.nCopies(ended.size(), Optional.empty()));
        List<Plan> plans = new ArrayList<>();
        List<Integer> planned = new ArrayList<>();
        for (int i = 0; i < ended.size(); i++) {
            Ended e = ended.get(i);
            try (LogContext ignored = logContext(e)) {
                Optional<RunView> view = switch (read.get(e.key())) {
                    case null -> Optional.empty();
                    case RunStore.Read.Found f -> Optional.of(f.view());
                    case RunStore.Read.Unreadable u -> runs.read(e.key());
                };
                if (view.isEmpty() || view.get().run().state() != RunState.ACTIVE) {
                    continue;
                }
                Optional<List<String>> candidates = candidates(RunGraphs.of(definitions, view.get()), e.nodes());
                if (candidates.isPresent()) {
                    plans.add(plan(view.get(), candidates.get(), false));
                    planned.add(i);
                }
            } catch (RuntimeException failed) {
                failures.set(i, Optional.of(failed));
            }
        }
        List<Submission.Submitted> sent = submission.submitEach(plans.stream().map(Plan::batch).toList());
        List<RunStore.Settle> settles = new ArrayList<>();
        List<Integer> settling = new ArrayList<>();
        for (int j = 0; j < plans.size(); j++) {
            int i = planned.get(j);
            try (LogContext ignored = logContext(ended.get(i))) {
                finish(plans.get(j), results(sent.get(j))).settle().ifPresent(settle -> {
                    settles.add(settle);
                    settling.add(i);
                });
            } catch (RuntimeException failed) {
                failures.set(i, Optional.of(failed));
            }
        }
        try {
            List<RunStore.Settled> settled = settlement.commit(settles);
            for (int j = 0; j < settled.size(); j++) {
                if (settled.get(j) instanceof RunStore.Settled.Failed f) {
                    failures.set(settling.get(j), Optional.of(f.error()));
                }
            }
        } catch (RuntimeException unanswered) {
            settling.forEach(i -> failures.set(i, Optional.of(unanswered)));
        }
        return failures;
    }

    private static LogContext logContext(Ended e) {
        return LogContext.of(e.key().graph(), e.key().partition().key(),
                e.nodes().size() == 1 ? e.nodes().getFirst() : null, null);
    }

    /** The nodes to look at once {@code nodes} ended: the downstreams of each, a mapped node for its items. */
    private static Optional<List<String>> candidates(Graph graph, List<String> nodes) {
        Set<String> candidates = new LinkedHashSet<>();
        boolean known = false;
        for (String node : nodes) {
            Optional<ItemName> item = ItemName.parse(node);
            if (item.isPresent() && graph.node(item.get().node()).map(Node::isMapped).orElse(false)) {
                // an item ended: its node may submit more items, or derive its record
                known = true;
                candidates.add(item.get().node());
            } else if (graph.hasNode(node)) {
                known = true;
                candidates.addAll(graph.downstreams(node));
                // a grown node whose `after` names other nodes only is no downstream of the node that grew it
                candidates.addAll(graph.grownNodesOf(node));
            }
        }
        return known ? Optional.of(List.copyOf(candidates)) : Optional.empty();
    }

    /** Submits the candidates that are ready, then settles the run if nothing is left to run. */
    public Advanced advance(RunView view, List<String> candidates) {
        return advance(view, candidates, false);
    }

    /**
     * As above; with {@code skipActive}, a ready node whose instance the view shows active is left alone
     * without a round trip (its submit could only answer `exists`, or `mismatch` for inputs that changed under
     * a running instance, which the event path reports).
     */
    private Advanced advance(RunView view, List<String> candidates, boolean skipActive) {
        Plan plan = plan(view, candidates, skipActive);
        Finished finished = finish(plan, results(submission.submitEach(List.of(plan.batch())).getFirst()));
        if (finished.settle().isEmpty()) {
            return finished.advanced();
        }
        return switch (settlement.commit(List.of(finished.settle().get())).getFirst()) {
            case RunStore.Settled.Done d -> new Advanced(finished.advanced().submitted(), d.settled());
            case RunStore.Settled.Failed f -> throw f.error();
        };
    }

    private static List<Submission.Result> results(Submission.Submitted sent) {
        return switch (sent) {
            case Submission.Submitted.Done d -> d.results();
            case Submission.Submitted.Failed f -> throw f.error();
        };
    }

    /**
     * An advance up to its submissions, which are built but not sent: the run as read, what it found, and
     * what its mapped nodes did (their items go to Redis at once, each node in one step of its own).
     */
    private record Plan(RunView view, Graph graph, Map<String, NodeRecord> records, Map<String, NodeState> states,
            Submission.Batch batch, int mappedSubmitted, List<String> derived,
            Optional<SwaleException.UnknownPool> unknownPool) {}

    private Plan plan(RunView view, List<String> candidates, boolean skipActive) {
        GraphRunRecord run = view.run();
        Graph graph = RunGraphs.of(definitions, view);
        Map<String, NodeRecord> records = RunRecords.byNode(graph, view);
        Map<String, NodeRecord> current = Readiness.currentRecords(run, records);
        Map<String, NodeState> states = Readiness.nodeStates(graph, current);
        OptionalLong readyAt = nowUs(clock);
        List<Submission.Request> ready = new ArrayList<>();
        Optional<SwaleException.UnknownPool> unknownPool = Optional.empty();
        int submitted = 0;
        List<String> derived = new ArrayList<>();
        for (String name : candidates) {
            if (states.get(name) != NodeState.READY) {
                continue;
            }
            Node candidate = graph.node(name).orElseThrow();
            if (candidate.isMapped()) {
                MappedNodes.Step step;
                try {
                    step = mapped.advance(view, graph, candidate, current, readyAt);
                } catch (SwaleException.UnknownPool e) {
                    // its items wait for their pool; an empty map still derives its record, so no check up front
                    unknownPool = unknownPool.or(() -> Optional.of(e));
                    continue;
                }
                submitted += step.submitted();
                if (step.derived()) {
                    derived.add(name);
                }
                continue;
            }
            NodeRecord record = records.get(name);
            long rerun = record == null ? 0 : record.rerun() + 1;
            if (skipActive && RunRecords.isActive(view, view.key().runId(name, rerun))) {
                continue;
            }
            Optional<SwaleException.UnknownPool> unknown = submission.unknownPool(candidate);
            if (unknown.isPresent()) {
                // its ready siblings in configured pools are not held up by it
                unknownPool = unknownPool.or(() -> unknown);
                continue;
            }
            ready.add(new Submission.Request(candidate, rerun));
        }
        Submission.Batch batch = submission.prepare(graph, run.definition(), view.key().partition(), ready, current,
                readyAt);
        return new Plan(view, graph, records, states, batch, submitted, derived, unknownPool);
    }

    /** An advance once its submissions are answered: what it did, and the settle it found, still to commit. */
    private record Finished(Advanced advanced, Optional<RunStore.Settle> settle) {}

    /**
     * The rest of an advance once its submissions are answered; then a ready node left unsubmitted for its pool is
     * thrown (transient: the event is retried, the reconciler submits it once the pool is configured).
     */
    private Finished finish(Plan plan, List<Submission.Result> results) {
        Finished finished = finishAnswered(plan, results);
        if (plan.unknownPool().isPresent()) {
            throw plan.unknownPool().get();
        }
        return finished;
    }

    /** A derived record's downstreams, or the settle. */
    private Finished finishAnswered(Plan plan, List<Submission.Result> results) {
        int submitted = plan.mappedSubmitted() + (int) results.stream().filter(Submission.Result::isNew).count();
        RunView view = plan.view();
        if (!plan.derived().isEmpty()) {
            // a mapped node's record is written by the scheduler, not a worker: no event announces it, so its
            // downstreams are advanced here, on a fresh read (a crash before this is repaired by the reconciler)
            Set<String> next = new LinkedHashSet<>();
            plan.derived().forEach(d -> next.addAll(plan.graph().downstreams(d)));
            Optional<RunView> fresh = runs.read(view.key());
            if (fresh.isPresent() && fresh.get().run().state() == RunState.ACTIVE) {
                Advanced after = advance(fresh.get(), List.copyOf(next), false);
                return new Finished(new Advanced(submitted + after.submitted(), after.settled()), Optional.empty());
            }
            return new Finished(new Advanced(submitted, false), Optional.empty());
        }
        Optional<RunStore.Settle> settle = submitted == 0
                ? settlement.of(view, plan.graph(), plan.records(), plan.states()) : Optional.empty();
        return new Finished(new Advanced(submitted, false), settle);
    }

    /** Advances every node of the run: what the reconciler does for an active run. */
    public Advanced advanceAll(RunView view) {
        Graph graph = RunGraphs.of(definitions, view);
        return advance(view, graph.nodes().stream().map(Node::name).toList(), true);
    }

    /** Where the task-terminated event of a mapped node's derived record goes (docs/dynamic-graphs.md §5). */
    public void publishDerivedTo(EventPublisher events) {
        mapped.publishTo(events);
    }

    /** Now in epoch µs, stamped into submitted instances as when their node was found ready. */
    static OptionalLong nowUs(Clock clock) {
        return OptionalLong.of(Submission.epochUs(clock));
    }
}
