package io.swale.run;

import io.swale.definition.Definition;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.logging.LogContext;
import io.swale.readiness.NodeState;
import io.swale.readiness.Readiness;
import io.swale.record.GraphRecord;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.DefinitionStore;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.task.SwaleException;
import io.swale.task.SwaleMetrics;
import java.time.Clock;
import java.util.ArrayList;
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
 * The scheduler's actions on graph runs: start, advance, settle, rerun and cancel (spec §7). Every action
 * re-reads Redis and is idempotent, so duplicate, late or lost Kafka messages change nothing.
 */
public final class GraphRuns {
    private static final Logger log = LoggerFactory.getLogger(GraphRuns.class);
    private static final int CAS_ATTEMPTS = 8;

    /** The result of start_run. */
    public record Started(boolean started, List<String> submitted) {}

    /** The result of advance: new submissions, and whether this call settled the run. */
    public record Advanced(int submitted, boolean settled) {}

    private final DefinitionCatalog definitions;
    private final DefinitionStore definitionStore;
    private final RunStore runs;
    private final TaskStore tasks;
    private final Submission submission;
    private final Clock clock;
    private final SwaleMetrics metrics;
    private final MappedNodes mapped;

    public GraphRuns(DefinitionCatalog definitions, DefinitionStore definitionStore, RunStore runs, TaskStore tasks,
            Submission submission, Clock clock, SwaleMetrics metrics) {
        this.definitions = definitions;
        this.definitionStore = definitionStore;
        this.runs = runs;
        this.tasks = tasks;
        this.submission = submission;
        this.clock = clock;
        this.metrics = metrics;
        this.mapped = new MappedNodes(tasks, submission, clock, metrics);
    }

    /** Creates the run (create-only) and submits every root at rerun 0. */
    public Started startRun(String hash, Partition partition) {
        Definition definition = definitions.get(hash);
        Graph graph = definition.graph();
        RunKey key = new RunKey(graph.name(), partition);
        if (!runs.create(key, GraphRunRecord.started(hash, clock.millis()))) {
            return new Started(false, List.of());
        }
        metrics.runStarted(graph.name());
        List<String> submitted = new ArrayList<>();
        List<Submission.Request> roots = graph.roots().stream().map(root -> new Submission.Request(root, 0)).toList();
        for (Submission.Result r : submission.submitAll(graph, hash, partition, roots, Map.of(), nowUs())) {
            submitted.add(r.runId());
        }
        try (LogContext ignored = LogContext.run(graph.name(), partition.key())) {
            log.info("started graph={} partition={} definition={} roots={}", graph.name(), partition, hash,
                    submitted.size());
        }
        return new Started(true, submitted);
    }

    /** Starts each partition with the graph record's definition; returns those actually started. */
    public List<Partition> startRuns(String graph, List<Partition> partitions) {
        GraphRecord record = definitionStore.graphRecord(graph).orElseThrow(() -> new SwaleException.UnknownGraph(graph));
        List<Partition> started = new ArrayList<>();
        for (Partition p : partitions) {
            if (startRun(record.definition(), p).started()) {
                started.add(p);
            }
        }
        return started;
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
     * The runs of several keys, read in one round trip, for {@link #onTasksTerminated(RunKey, List, Map)}: the
     * events of one poll name many runs, and each would otherwise cost a read of its own.
     */
    public Map<RunKey, RunStore.Read> readRuns(List<RunKey> keys) {
        Map<RunKey, RunStore.Read> out = new java.util.HashMap<>();
        runs.readEach(keys).forEach(r -> out.put(r.key(), r));
        return out;
    }

    /**
     * As {@link #onTasksTerminated(RunKey, List)} on a run read by {@link #readRuns}; a run absent from
     * {@code read} does not exist, and an unreadable one is read again alone so it fails as it would have.
     */
    public void onTasksTerminated(RunKey key, List<String> nodes, Map<RunKey, RunStore.Read> read) {
        onTasksTerminated(switch (read.get(key)) {
            case null -> Optional.<RunView>empty();
            case RunStore.Read.Found f -> Optional.of(f.view());
            case RunStore.Read.Unreadable u -> runs.read(key);
        }, nodes);
    }

    private void onTasksTerminated(Optional<RunView> view, List<String> nodes) {
        if (view.isEmpty() || view.get().run().state() != RunState.ACTIVE) {
            return;
        }
        Graph graph = graphOf(view.get());
        java.util.Set<String> candidates = new java.util.LinkedHashSet<>();
        boolean known = false;
        for (String node : nodes) {
            Optional<io.swale.graph.ItemName> item = io.swale.graph.ItemName.parse(node);
            if (item.isPresent() && graph.node(item.get().node()).map(Node::isMapped).orElse(false)) {
                // an item ended: its node may submit more items, or derive its record
                known = true;
                candidates.add(item.get().node());
            } else if (graph.hasNode(node)) {
                known = true;
                candidates.addAll(graph.downstreams(node));
            }
        }
        if (known) {
            advance(view.get(), List.copyOf(candidates));
        }
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
        GraphRunRecord run = view.run();
        Graph graph = graphOf(view);
        Map<String, NodeRecord> records = RunRecords.byNode(graph, view);
        Map<String, NodeRecord> current = Readiness.currentRecords(run, records);
        Map<String, NodeState> states = Readiness.nodeStates(graph, current);
        OptionalLong readyAt = nowUs();
        List<Submission.Request> ready = new ArrayList<>();
        int submitted = 0;
        List<String> derived = new ArrayList<>();
        for (String name : candidates) {
            if (states.get(name) != NodeState.READY) {
                continue;
            }
            Node candidate = graph.node(name).orElseThrow();
            if (candidate.isMapped()) {
                MappedNodes.Step step = mapped.advance(view, graph, candidate, current, readyAt);
                submitted += step.submitted();
                if (step.derived()) {
                    derived.add(name);
                }
                continue;
            }
            NodeRecord record = records.get(name);
            long rerun = record == null ? 0 : record.rerun() + 1;
            if (skipActive && isActive(view, view.key().runId(name, rerun))) {
                continue;
            }
            ready.add(new Submission.Request(graph.node(name).orElseThrow(), rerun));
        }
        for (Submission.Result r : submission.submitAll(graph, run.definition(), view.key().partition(), ready, current,
                readyAt)) {
            if (r.isNew()) {
                submitted++;
            }
        }
        if (!derived.isEmpty()) {
            // a mapped node's record is written by the scheduler, not a worker: no event announces it, so its
            // downstreams are advanced here, on a fresh read (a crash before this is repaired by the reconciler)
            java.util.Set<String> next = new java.util.LinkedHashSet<>();
            derived.forEach(d -> next.addAll(graph.downstreams(d)));
            Optional<RunView> fresh = runs.read(view.key());
            if (fresh.isPresent() && fresh.get().run().state() == RunState.ACTIVE) {
                Advanced after = advance(fresh.get(), List.copyOf(next), false);
                return new Advanced(submitted + after.submitted(), after.settled());
            }
            return new Advanced(submitted, false);
        }
        boolean settled = submitted == 0 && settle(view, graph, records, states);
        return new Advanced(submitted, settled);
    }

    /** Advances every node of the run: what the reconciler does for an active run. */
    public Advanced advanceAll(RunView view) {
        Graph graph = graphOf(view);
        return advance(view, graph.nodes().stream().map(Node::name).toList(), true);
    }

    private boolean settle(RunView view, Graph graph, Map<String, NodeRecord> records, Map<String, NodeState> states) {
        Optional<RunState> settledState = Readiness.settledState(states);
        if (settledState.isEmpty()) {
            return false;
        }
        GraphRunRecord run = view.run();
        List<String> unrecorded = new ArrayList<>();
        for (Node n : graph.nodes()) {
            if (n.isMapped()) {
                // a mapped node has no instance of its own: its items must all have ended
                if (MappedNodes.items(view, n.name()).stream().anyMatch(i -> i.status().isActive())) {
                    return false;
                }
                continue;
            }
            Optional<String> runId = unrecordedRunId(view.key(), run, n.name(), records.get(n.name()));
            if (runId.isPresent() && isActive(view, runId.get())) {
                return false;
            }
            runId.ifPresent(unrecorded::add);
        }
        SortedMap<String, Long> expected = new TreeMap<>(run.expectedReruns());
        expected.entrySet().removeIf(e -> {
            NodeRecord r = MappedReruns.expectedTarget(view, records, e.getKey());
            return r != null && r.rerun() >= e.getValue();
        });
        GraphRunRecord settled = run.withState(settledState.get(), Optional.of(clock.millis())).withExpectedReruns(expected);
        // atomic with the instances: a rerun that submitted one of them since the view was read wins
        if (!runs.compareAndSettle(view.key(), view.version(), settled, unrecorded)) {
            return false;
        }
        if (view.instances().values().stream().noneMatch(i -> i.status().isActive())) {
            runs.dropActive(view.key());
        }
        metrics.runSettled(view.key().graph(), settledState.get().wireName());
        try (LogContext ignored = LogContext.run(view.key().graph(), view.key().partition().key())) {
            log.info("settled graph={} partition={} state={}", view.key().graph(), view.key().partition(),
                    settledState.get().wireName());
        }
        return true;
    }

    /** Rerun of one node (spec §7.8). */
    public RerunOutcome rerun(String graphName, Partition partition, String nodeName) {
        return rerun(graphName, partition, nodeName, runId -> Optional.empty());
    }

    /**
     * Rerun of one node; {@code request} gives the request record to commit atomically with the submission,
     * which happens only when the outcome is Submitted (spec §10, §14 #18).
     */
    public RerunOutcome rerun(String graphName, Partition partition, String nodeName,
            Function<String, Optional<TaskStore.RequestWrite>> request) {
        RunKey key = new RunKey(graphName, partition);
        for (int attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
            RunView view = runs.read(key).orElseThrow(() -> new SwaleException.UnknownGraphRun(graphName, partition.key()));
            GraphRunRecord run = view.run();
            Graph graph = graphOf(view);
            Optional<io.swale.graph.ItemName> item = io.swale.graph.ItemName.parse(nodeName);
            String baseName = item.map(io.swale.graph.ItemName::node).orElse(nodeName);
            Node node = graph.node(baseName).filter(n -> item.isEmpty() || n.isMapped())
                    .orElseThrow(() -> new SwaleException.UnknownNode(graphName, nodeName));
            if (node.isMapped()) {
                Optional<RerunOutcome> outcome = rerunMapped(view, graph, node, item.map(io.swale.graph.ItemName::index),
                        request);
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
                MappedReruns.expectScope(graph, records, expected, nodeName);
            }
            GraphRunRecord draft = new GraphRunRecord(run.definition(), run.requestedAtMs(), RunState.ACTIVE,
                    Optional.empty(), expected);
            Map<String, NodeRecord> current = Readiness.currentRecords(draft, records);
            if (!Readiness.isReady(graph, nodeName, current)) {
                return new RerunOutcome.NotReady(nodeName);
            }
            // the put enters the run in the active-runs index atomically
            if (!draft.equals(run) && !runs.compareAndPut(key, view.version(), draft)) {
                continue;
            }
            ReplacedGrowths.cancel(view, graph, graphOf(withRun(view, draft)), records, tasks, metrics, clock, mapped,
                    this::leftLeaseQueues);
            Definition recorded = definitions.get(record.definition());
            // a grown node is in no definition: it reruns as the run's effective graph has it
            Graph recordedGraph = recorded.graph().hasNode(nodeName) ? recorded.graph() : graph;
            Node recordedNode = recordedGraph.node(nodeName).orElse(node);
            Submission.Result r = submission.submit(recordedGraph, record.definition(), partition, recordedNode,
                    record.rerun() + 1, current, nowUs(), request);
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
                Optional<TaskStore.RequestWrite> write = request.apply(put.answerId());
                boolean committed = write.isPresent()
                        ? tasks.compareAndPutRun(view.key(), view.version(), put.draft(), write.get())
                        : runs.compareAndPut(view.key(), view.version(), put.draft());
                if (!committed) {
                    return Optional.empty();
                }
                try (LogContext ignored = LogContext.run(view.key().graph(), view.key().partition().key())) {
                    log.info("rerun of mapped node graph={} partition={} node={} item={} id={}", view.key().graph(),
                            view.key().partition(), node.name(), index.map(String::valueOf).orElse("all"),
                            put.answerId());
                }
                // submit what may run now; a crash here is repaired by the reconciler, which finds the node ready
                runs.read(view.key()).ifPresent(fresh -> advance(fresh, List.of(node.name())));
                return Optional.of(new RerunOutcome.Submitted(put.answerId()));
            }
        }
    }

    /** Cancels an active run: records it cancelled, then cancels every unrecorded instance. */
    public boolean cancel(String graphName, Partition partition) {
        RunKey key = new RunKey(graphName, partition);
        Optional<RunView> view = runs.read(key);
        if (view.isEmpty() || view.get().run().state() != RunState.ACTIVE) {
            return false;
        }
        GraphRunRecord cancelled = view.get().run().withState(RunState.CANCELLED, Optional.of(clock.millis()));
        if (!runs.compareAndSettle(key, view.get().version(), cancelled)) {
            return false;
        }
        metrics.runSettled(graphName, RunState.CANCELLED.wireName());
        cancelInstances(view.get());
        try (LogContext ignored = LogContext.run(graphName, partition.key())) {
            log.info("cancelled graph={} partition={}", graphName, partition);
        }
        return true;
    }

    /** Where the task-terminated event of a mapped node's derived record goes (docs/dynamic-graphs.md §5). */
    public void publishDerivedTo(io.swale.task.EventPublisher events) {
        mapped.publishTo(events);
    }

    // A cancelled instance waiting for leases leaves every queue (docs/resources.md)
    private volatile java.util.function.Consumer<String> leaseQueues = runId -> { };

    /** Told the run id of each pending instance of a node with leases that a cancel ended. */
    public void onLeasedInstanceCancelled(java.util.function.Consumer<String> listener) {
        this.leaseQueues = listener;
    }

    private void leftLeaseQueues(String runId) {
        try {
            leaseQueues.accept(runId);
        } catch (RuntimeException e) {
            // the next wake finds the instance no longer pending, and it leaves then
            log.warn("cancelled instance still in a lease queue runId={} error={}", runId, e.toString());
        }
    }

    /** Cancels each node's unrecorded run id that is known and active; returns how many it reached. */
    public int cancelInstances(RunView view) {
        Graph graph = graphOf(view);
        Map<String, NodeRecord> records = RunRecords.byNode(graph, view);
        int reached = 0;
        for (Node n : graph.nodes()) {
            if (n.isMapped()) {
                // items of a node with leases may wait in its queues: each cancelled one leaves them
                reached += mapped.cancelItems(view, n.name(), "the graph run was cancelled",
                        n.leases().isEmpty() ? runId -> { } : this::leftLeaseQueues);
                continue;
            }
            Optional<String> runId = unrecordedRunId(view.key(), view.run(), n.name(), records.get(n.name()));
            if (runId.isEmpty() || !isActive(view, runId.get())) {
                continue;
            }
            TaskInstance instance = view.instances().get(runId.get());
            NodeRecord record = new NodeRecord(NodeStatus.CANCELLED, runId.get(), view.run().definition(),
                    instance.rerun(), clock.millis(), Optional.empty(), false, Optional.of("the graph run was cancelled"));
            TaskStore.Cancel outcome = tasks.cancel(view.key(), RunRecords.field(n), record);
            if (outcome != TaskStore.Cancel.INACTIVE) {
                reached++;
            }
            if (outcome == TaskStore.Cancel.CANCELLED) {
                metrics.taskTerminated(instance.pool(), NodeStatus.CANCELLED.wireName());
                if (!n.leases().isEmpty()) {
                    leftLeaseQueues(runId.get());
                }
            }
        }
        return reached;
    }

    /** No record → r0; a current succeeded record → none; otherwise the next rerun (spec §7.10). */
    static Optional<String> unrecordedRunId(RunKey key, GraphRunRecord run, String node, NodeRecord record) {
        if (record == null) {
            return Optional.of(key.runId(node, 0));
        }
        if (record.succeeded() && run.isCurrent(node, record)) {
            return Optional.empty();
        }
        return Optional.of(key.runId(node, record.rerun() + 1));
    }

    private static RunView withRun(RunView view, GraphRunRecord run) {
        return new RunView(view.key(), view.version(), run, view.nodeRecords(), view.instances(), view.growths());
    }

    /** The run's effective graph: its definition and its current declared growths (docs/dynamic-graphs.md §8.7). */
    private Graph graphOf(RunView view) {
        return RunGraphs.of(definitions.get(view.run().definition()), view);
    }

    /** Now in epoch µs, stamped into submitted instances as when their node was found ready. */
    private OptionalLong nowUs() {
        java.time.Instant now = clock.instant();
        return OptionalLong.of(now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000);
    }

    static boolean isActive(RunView view, String runId) {
        TaskInstance i = view.instances().get(runId);
        return i != null && i.status().isActive();
    }
}
