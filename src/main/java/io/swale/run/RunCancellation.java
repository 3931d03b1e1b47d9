package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.logging.LogContext;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.task.EventPublisher;
import io.swale.task.SwaleException;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancelling a graph run (spec §7): records it cancelled, then cancels each node's unrecorded active instance
 * and each active item of a mapped node. A cancelled instance of a node with leases leaves the lease queues it
 * waits in (docs/resources.md). Each cancelled record written is announced like any other (spec §5.6).
 * Idempotent: an instance that already ended is left as it is.
 */
public final class RunCancellation {
    private static final Logger log = LoggerFactory.getLogger(RunCancellation.class);
    /** Compares a cancel may lose to other writes of the run before it is answered as contended (503). */
    private static final int CAS_ATTEMPTS = 8;
    private static final String RUN_CANCELLED = "the graph run was cancelled";

    private final DefinitionCatalog definitions;
    private final RunStore runs;
    private final TaskStore tasks;
    private final Clock clock;
    private final SwaleMetrics metrics;
    private final EventPublisher events;
    // A cancelled instance waiting for leases leaves every queue (docs/resources.md)
    private volatile Consumer<String> leaseQueues = runId -> { };

    public RunCancellation(DefinitionCatalog definitions, RunStore runs, TaskStore tasks, Clock clock,
            SwaleMetrics metrics, EventPublisher events) {
        this.definitions = definitions;
        this.runs = runs;
        this.tasks = tasks;
        this.clock = clock;
        this.metrics = metrics;
        this.events = events;
    }

    /** Told the run id of each pending instance of a node with leases that a cancel ended. */
    public void onLeasedInstanceCancelled(Consumer<String> listener) {
        this.leaseQueues = listener;
    }

    /** Cancels an active run: records it cancelled, then cancels every unrecorded instance. */
    public boolean cancel(String graphName, Partition partition) {
        return cancel(graphName, partition, Optional.empty());
    }

    /**
     * As above; {@code request}'s record, when given, commits with the cancelled run record, so that a retry of a
     * call that failed after the cancel committed finds it (spec §10).
     */
    public boolean cancel(String graphName, Partition partition, Optional<TaskStore.RequestWrite> request) {
        RunKey key = new RunKey(graphName, partition);
        // a lost compare (a rerun's put, an advance's write) is read again: the run may still be active (§14 #4)
        for (int attempt = 0; ; attempt++) {
            Optional<RunView> view = runs.read(key);
            if (view.isEmpty() || view.get().run().state() != RunState.ACTIVE) {
                return false;
            }
            GraphRunRecord cancelled = view.get().run().withState(RunState.CANCELLED, Optional.of(clock.millis()));
            boolean committed;
            try {
                committed = request.isPresent()
                        ? tasks.compareAndSettleRun(key, view.get().version(), cancelled, request.get())
                        : runs.compareAndSettle(key, view.get().version(), cancelled);
            } catch (RuntimeException e) {
                committed = committedAnyway(key, cancelled, e);
            }
            if (committed) {
                return cancelInstancesOf(key, view.get());
            }
            if (attempt + 1 == CAS_ATTEMPTS) {
                throw new SwaleException.Contended(graphName, partition.key());
            }
        }
    }

    /** After the cancel committed: every unrecorded instance of the run is cancelled, here or by the reconciler. */
    private boolean cancelInstancesOf(RunKey key, RunView view) {
        String graphName = key.graph();
        Partition partition = key.partition();
        metrics.runSettled(graphName, RunState.CANCELLED.wireName());
        try (LogContext ignored = LogContext.run(graphName, partition.key())) {
            try {
                // read again: an instance submitted between the read and the commit is in the run now, and none
                // can be submitted after the commit (the submit script refuses an inactive run) unless a rerun
                // reactivated it, whose instances each cancel leaves alone
                cancelInstances(runs.read(key).orElse(view));
            } catch (RuntimeException e) {
                // the cancel is committed and every reconciler pass repeats the instances' cancels (spec §7.9): the
                // caller hears true, where an error would have its retry find the run settled and be refused
                log.warn("cancelled, the instances left to the reconciler graph={} partition={} error={}", graphName,
                        partition, e.toString());
                return true;
            }
            log.info("cancelled graph={} partition={}", graphName, partition);
        }
        return true;
    }

    /**
     * Whether a cancel whose call failed committed all the same: its reply can be lost after Redis applied it (a
     * read timeout, or too few replicas under durability=wait), and a retry would then find the run settled and
     * be refused. The run record, with the cancel's own settle time, says; {@code failure} is rethrown otherwise.
     */
    private boolean committedAnyway(RunKey key, GraphRunRecord cancelled, RuntimeException failure) {
        try {
            if (cancelled.equals(runs.runRecords(List.of(key)).get(key))) {
                log.info("cancel committed though its reply was lost graph={} partition={} error={}", key.graph(),
                        key.partition(), failure.toString());
                return true;
            }
        } catch (RuntimeException again) {
            failure.addSuppressed(again);
        }
        throw failure;
    }

    /**
     * Cancels each node's unrecorded run id that is known and active, and every active instance of a node outside
     * the run's graph (a replaced growth's that its rerun's cancel missed, one of a growth left out for a cycle):
     * those end with the run too, or they would be dispatched again at every stale-dispatch pass, refused each time,
     * and keep the run in the active index for good. Returns how many it reached.
     */
    public int cancelInstances(RunView view) {
        Graph graph = RunGraphs.of(definitions, view);
        Map<String, NodeRecord> records = RunRecords.byNode(graph, view);
        int reached = 0;
        for (Node n : graph.nodes()) {
            reached += cancelNode(view, n, records, RUN_CANCELLED, true);
        }
        for (TaskInstance i : view.instances().values()) {
            if (i.status().isActive() && !graph.hasNode(io.swale.graph.ItemName.nodeOf(i.node()))) {
                reached += cancelInstance(view, i, RUN_CANCELLED, true);
            }
        }
        return reached;
    }

    /**
     * Cancels the active instances of nodes that are no longer part of the run's graph and that no current growth
     * declares: a rerun replaced the growth that added them, and its own cancel of them did not happen (its
     * scheduler died after the put, the cancel failed) or came before a late submission of one. Nothing waits for
     * them, and each would hold its slot and leases, or be dispatched again for ever. So are those of a grown node
     * that the rerun's attempt declared again, older than the node's expected rerun: obsolete, and their cancelled
     * record lets the node run anew. Returns how many it reached.
     */
    public int cancelOrphans(RunView view) {
        Graph graph = RunGraphs.of(definitions, view);
        int reached = 0;
        for (TaskInstance i : view.instances().values()) {
            if (!i.status().isActive()) {
                continue;
            }
            String node = io.swale.graph.ItemName.nodeOf(i.node());
            boolean superseded = RunGraphs.supersededGrownInstance(graph, view, node, i);
            if (!superseded && (graph.hasNode(node) || RunGraphs.declaredByCurrentGrowth(view, graph, node))) {
                continue;
            }
            reached += cancelInstance(view, i, superseded
                    ? "the growth that added node `" + node + "` was replaced by a rerun, which declared it again: "
                            + "this instance is obsolete"
                    : "node `" + node + "` is no longer part of the run's graph (the growth that added it was "
                            + "replaced by a rerun)", false);
        }
        return reached;
    }

    /**
     * Cancels one instance, with {@code reason} in its cancelled record; 1 if it reached it. {@code ofCancelledRun}:
     * only while the run is still cancelled (a rerun may have reactivated it since the view was read).
     */
    private int cancelInstance(RunView view, TaskInstance i, String reason, boolean ofCancelledRun) {
        NodeRecord record = new NodeRecord(NodeStatus.CANCELLED, i.runId(), i.definition(), i.rerun(), clock.millis(),
                Optional.empty(), false, Optional.of(reason));
        RecordField field = new RecordField(i.node(), i.asset());
        return cancelled(cancel(view.key(), field, record, ofCancelledRun), identity(view, field, record), i.runId(),
                i.pool(), this::leftLeaseQueues);
    }

    private TaskStore.Cancel cancel(RunKey key, RecordField field, NodeRecord record, boolean ofCancelledRun) {
        return ofCancelledRun ? tasks.cancelOfCancelledRun(key, field, record) : tasks.cancel(key, field, record);
    }

    /**
     * Cancels the node's unrecorded instance if the view shows it active, or every active item of a mapped
     * node, with {@code reason} in the cancelled record; returns how many instances it reached.
     */
    int cancelNode(RunView view, Node n, Map<String, NodeRecord> records, String reason) {
        return cancelNode(view, n, records, reason, false);
    }

    private int cancelNode(RunView view, Node n, Map<String, NodeRecord> records, String reason,
            boolean ofCancelledRun) {
        // a node with leases may be waiting in their queues: each cancelled instance leaves them at once
        Consumer<String> left = n.leases().isEmpty() ? runId -> { } : this::leftLeaseQueues;
        if (n.isMapped()) {
            return cancelItems(view, n.name(), reason, left, ofCancelledRun);
        }
        Optional<String> runId = RunRecords.unrecordedRunId(view.key(), view.run(), n.name(), records.get(n.name()));
        if (runId.isEmpty() || !RunRecords.isActive(view, runId.get())) {
            return 0;
        }
        TaskInstance instance = view.instances().get(runId.get());
        NodeRecord record = new NodeRecord(NodeStatus.CANCELLED, runId.get(), view.run().definition(),
                instance.rerun(), clock.millis(), Optional.empty(), false, Optional.of(reason));
        RecordField field = RunRecords.field(n);
        return cancelled(cancel(view.key(), field, record, ofCancelledRun), identity(view, field, record),
                runId.get(), instance.pool(), left);
    }

    /** Cancels the node's active items, telling {@code onCancelled} each run id it ended; returns how many it reached. */
    private int cancelItems(RunView view, String node, String reason, Consumer<String> onCancelled,
            boolean ofCancelledRun) {
        int reached = 0;
        for (TaskInstance i : MappedNodes.items(view, node)) {
            if (!i.status().isActive()) {
                continue;
            }
            NodeRecord record = new NodeRecord(NodeStatus.CANCELLED, i.runId(), i.definition(), i.rerun(),
                    clock.millis(), Optional.empty(), false, Optional.of(reason));
            RecordField field = new RecordField(i.node(), Optional.empty());
            reached += cancelled(cancel(view.key(), field, record, ofCancelledRun), identity(view, field, record),
                    i.runId(), i.pool(), onCancelled);
        }
        return reached;
    }

    private static TaskIdentity identity(RunView view, RecordField field, NodeRecord record) {
        return new TaskIdentity(view.key().graph(), view.key().partition(), field.node(), field.asset(),
                record.definition(), record.rerun());
    }

    /** Counts, announces and tells what one cancel did: 1 when it ended the instance or asked it to stop, else 0. */
    private int cancelled(TaskStore.Cancel outcome, TaskIdentity identity, String runId, String pool,
            Consumer<String> onCancelled) {
        if (outcome == TaskStore.Cancel.CANCELLED) {
            metrics.taskTerminated(pool, NodeStatus.CANCELLED.wireName());
            onCancelled.accept(runId);
            announce(identity);
        }
        return outcome == TaskStore.Cancel.CANCELLED || outcome == TaskStore.Cancel.CANCELLING ? 1 : 0;
    }

    private void announce(TaskIdentity identity) {
        try {
            events.taskTerminated(identity, NodeStatus.CANCELLED);
        } catch (RuntimeException e) {
            // informational: the record is written, and the scheduler ignores events of a cancelled run (§7.9)
            log.warn("cancelled instance's event not sent graph={} partition={} node={} error={}", identity.graph(),
                    identity.partition(), identity.node(), e.toString());
        }
    }

    private void leftLeaseQueues(String runId) {
        try {
            leaseQueues.accept(runId);
        } catch (RuntimeException e) {
            // the next wake finds the instance no longer pending, and it leaves then
            log.warn("cancelled instance still in a lease queue runId={} error={}", runId, e.toString());
        }
    }
}
