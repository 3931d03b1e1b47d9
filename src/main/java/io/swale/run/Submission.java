package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.record.NodeRecord;
import io.swale.store.PendingInstance;
import io.swale.store.RunKey;
import io.swale.store.TaskStore;
import io.swale.task.Dispatcher;
import io.swale.task.SwaleException;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import io.swale.task.TaskStep;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a task instance in Redis (idempotent on its run id) and, when it is new, dispatches it. A crash
 * between the two leaves a pending instance that the reconciler dispatches again.
 */
public final class Submission {
    private static final Logger log = LoggerFactory.getLogger(Submission.class);

    /**
     * The run id, whether this call created the instance, and whether it was refused because the run is no
     * longer active (settled or cancelled after the caller read it).
     */
    public record Result(String runId, boolean isNew, boolean runInactive) {
        public Result(String runId, boolean isNew) {
            this(runId, isNew, false);
        }
    }

    private final TaskStore tasks;
    private final Dispatcher dispatcher;
    private final PoolCatalog pools;
    private final SwaleMetrics metrics;
    private final Clock clock;
    private final InDoubtSubmissions inDoubt = new InDoubtSubmissions();

    public Submission(TaskStore tasks, Dispatcher dispatcher, PoolCatalog pools, SwaleMetrics metrics, Clock clock) {
        this.tasks = tasks;
        this.dispatcher = dispatcher;
        this.pools = pools;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Now on the scheduler's clock, epoch µs. */
    private long nowUs() {
        return epochUs(clock);
    }

    /** Now on {@code clock} in epoch µs: the unit of an instance's {@code ready_us} stamp. */
    static long epochUs(Clock clock) {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** The ready-to-submitted latency of a new instance, from its {@code ready_us} stamp. */
    private void recordSubmitted(Node node, long readyUs) {
        metrics.submitted(node.pool(), Math.max(0, (nowUs() - readyUs) / 1_000));
    }

    /** Submits a node found ready now (a root, or a node submitted by request). */
    public Result submit(Graph graph, String definition, Partition partition, Node node, long rerun,
            Map<String, NodeRecord> current) {
        return submit(graph, definition, partition, node, rerun, current, OptionalLong.empty(), id -> Optional.empty());
    }

    /** As above, recording when the scheduler found the node ready (epoch µs; now when empty) in the instance. */
    public Result submit(Graph graph, String definition, Partition partition, Node node, long rerun,
            Map<String, NodeRecord> current, OptionalLong readyUs) {
        return submit(graph, definition, partition, node, rerun, current, readyUs, id -> Optional.empty());
    }

    /**
     * Submits; {@code request} gives, for the run id, a request record that commits atomically with the
     * instance and only if the instance is new (a Submitted rerun, spec §10).
     */
    public Result submit(Graph graph, String definition, Partition partition, Node node, long rerun,
            Map<String, NodeRecord> current, Function<String, Optional<TaskStore.RequestWrite>> request) {
        return submit(graph, definition, partition, node, rerun, current, OptionalLong.empty(), request);
    }

    /**
     * Submits with both: the ready stamp ({@code ready_us}, epoch µs; now when empty) and the request record
     * that commits only with a new instance.
     */
    public Result submit(Graph graph, String definition, Partition partition, Node node, long rerun,
            Map<String, NodeRecord> current, OptionalLong readyUs,
            Function<String, Optional<TaskStore.RequestWrite>> request) {
        requireConfigured(node);
        TaskIdentity identity = new TaskIdentity(graph.name(), partition, node.name(), node.produces(), definition, rerun);
        RunKey key = identity.runKey();
        String runId = identity.runId();
        long ready = readyUs.orElseGet(this::nowUs);
        PendingInstance instance = new PendingInstance(node.name(), node.produces(), definition, rerun, node.pool(),
                node.maxAttempts(), OptionalLong.of(ready));
        TaskStep.reached(TaskStep.Kind.SUBMITTING, identity);
        TaskStore.Submit outcome = inDoubtIfFailing(() -> List.of(identity),
                () -> tasks.submit(key, runId, instance, TaskInputs.of(graph, node, current), request.apply(runId)));
        TaskStep.reached(TaskStep.Kind.SUBMITTED, identity);
        return switch (outcome) {
            case NEW -> {
                inDoubt.created(identity);
                recordSubmitted(node, ready);
                dispatcher.dispatch(node.pool(), identity);
                log.debug("submitted graph={} partition={} node={} runId={}", graph.name(), partition, node.name(), runId);
                yield new Result(runId, true);
            }
            case EXISTS -> {
                dispatchIfInDoubt(node.pool(), identity);
                yield new Result(runId, false);
            }
            case INACTIVE -> new Result(runId, false, true);
            case MISMATCH -> throw new SwaleException.InputMismatch(runId);
        };
    }

    /** {@code call}, whose failure leaves the submissions of {@code ids} in doubt (InDoubtSubmissions). */
    private <T> T inDoubtIfFailing(java.util.function.Supplier<List<TaskIdentity>> ids,
            java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            inDoubt.failed(ids.get(), System.nanoTime());
            throw e;
        }
    }

    /** Whether any submission's outcome is in doubt: only then is {@link #dispatchIfInDoubt} worth an identity. */
    boolean anyInDoubt() {
        return !inDoubt.isEmpty();
    }

    /** An instance that exists already is dispatched again if an earlier submission of it failed (InDoubtSubmissions). */
    void dispatchIfInDoubt(String pool, TaskIdentity identity) {
        if (inDoubt.answered(identity, System.nanoTime())) {
            log.info("dispatched again: its submission's answer was lost graph={} partition={} node={} runId={}",
                    identity.graph(), identity.partition(), identity.node(), identity.runId());
            dispatcher.dispatch(pool, identity);
        }
    }

    /** A node to submit at a rerun count. */
    public record Request(Node node, long rerun) {}

    /**
     * Submits several nodes of one run with one round trip to Redis (each still its own atomic script),
     * then dispatches those that are new, in order. Results in the order of the requests.
     */
    public List<Result> submitAll(Graph graph, String definition, Partition partition, List<Request> requests,
            Map<String, NodeRecord> current, OptionalLong readyUs) {
        Batch batch = prepare(graph, definition, partition, requests, current, readyUs);
        if (batch.isEmpty()) {
            return List.of();
        }
        batch.identities().forEach(id -> TaskStep.reached(TaskStep.Kind.SUBMITTING, id));
        return complete(batch,
                inDoubtIfFailing(batch::identities, () -> tasks.submitAll(batch.key(), batch.submits())));
    }

    /**
     * The submissions of one run, built and checked but not sent: {@link #submitEach} sends those of several
     * runs together.
     */
    public record Batch(Graph graph, Partition partition, List<Request> requests, List<TaskIdentity> identities,
            List<TaskStore.SubmitRequest> submits, long readyUs) {
        public Batch {
            requests = List.copyOf(requests);
            identities = List.copyOf(identities);
            submits = List.copyOf(submits);
        }

        boolean isEmpty() {
            return identities.isEmpty();
        }

        RunKey key() {
            return identities.getFirst().runKey();
        }
    }

    /** What became of one {@link Batch} of {@link #submitEach}: its results, or why they are not known. */
    public sealed interface Submitted {
        record Done(List<Result> results) implements Submitted {}

        record Failed(RuntimeException error) implements Submitted {}
    }

    private void requireConfigured(Node node) {
        unknownPool(node).ifPresent(e -> {
            throw e;
        });
    }

    /** Why {@code node} cannot be submitted here: its pool is not configured (spec §9); empty when it can. */
    public Optional<SwaleException.UnknownPool> unknownPool(Node node) {
        return pools.isConfigured(node.pool()) ? Optional.empty()
                : Optional.of(new SwaleException.UnknownPool(node.name(), node.pool()));
    }

    /**
     * Builds the submissions of one run; fails fast, sending nothing, on a node whose pool is not configured.
     */
    public Batch prepare(Graph graph, String definition, Partition partition, List<Request> requests,
            Map<String, NodeRecord> current, OptionalLong readyUs) {
        long ready = readyUs.orElseGet(this::nowUs);
        List<TaskIdentity> identities = new ArrayList<>();
        List<TaskStore.SubmitRequest> submits = new ArrayList<>();
        for (Request r : requests) {
            Node node = r.node();
            requireConfigured(node);
            TaskIdentity identity = new TaskIdentity(graph.name(), partition, node.name(), node.produces(), definition,
                    r.rerun());
            identities.add(identity);
            submits.add(new TaskStore.SubmitRequest(identity.runId(),
                    new PendingInstance(node.name(), node.produces(), definition, r.rerun(), node.pool(),
                            node.maxAttempts(), OptionalLong.of(ready)),
                    TaskInputs.of(graph, node, current)));
        }
        return new Batch(graph, partition, requests, identities, submits, ready);
    }

    /**
     * Submits the batches of several runs in one round trip to Redis, then dispatches each run's new instances
     * as {@link #submitAll} does, every run's before any failure is known to its caller: a run whose script
     * failed, or whose inputs did not match, does not keep the others' new instances from their workers. A store
     * that does not answer throws, and nothing is dispatched.
     */
    public List<Submitted> submitEach(List<Batch> batches) {
        List<Batch> sent = batches.stream().filter(b -> !b.isEmpty()).toList();
        sent.forEach(b -> b.identities().forEach(id -> TaskStep.reached(TaskStep.Kind.SUBMITTING, id)));
        List<TaskStore.RunSubmitted> answers = sent.isEmpty() ? List.of()
                : inDoubtIfFailing(() -> sent.stream().flatMap(b -> b.identities().stream()).toList(),
                        () -> tasks.submitEach(sent.stream().map(b -> new TaskStore.RunSubmits(b.key(), b.submits()))
                                .toList()));
        List<Submitted> out = new ArrayList<>(batches.size());
        int next = 0;
        for (Batch b : batches) {
            if (b.isEmpty()) {
                out.add(new Submitted.Done(List.of()));
                continue;
            }
            try {
                out.add(switch (answers.get(next++)) {
                    case TaskStore.RunSubmitted.Done d -> new Submitted.Done(complete(b, d.outcomes()));
                    case TaskStore.RunSubmitted.Failed f -> {
                        inDoubt.failed(b.identities(), System.nanoTime());
                        yield new Submitted.Failed(f.error());
                    }
                });
            } catch (RuntimeException e) {
                // a mismatch, or an error in a dispatch: this run's, not the others'
                out.add(new Submitted.Failed(e));
            }
        }
        return out;
    }

    /** Dispatches the new instances of a sent batch, in order; a mismatch is reported once they all are. */
    private List<Result> complete(Batch batch, List<TaskStore.Submit> outcomes) {
        List<TaskIdentity> identities = batch.identities();
        identities.forEach(id -> TaskStep.reached(TaskStep.Kind.SUBMITTED, id));
        List<Result> results = new ArrayList<>();
        SwaleException.InputMismatch mismatch = null;
        for (int i = 0; i < identities.size(); i++) {
            TaskIdentity identity = identities.get(i);
            switch (outcomes.get(i)) {
                case NEW -> {
                    inDoubt.created(identity);
                    recordSubmitted(batch.requests().get(i).node(), batch.readyUs());
                    dispatcher.dispatch(batch.requests().get(i).node().pool(), identity);
                    log.debug("submitted graph={} partition={} node={} runId={}", batch.graph().name(),
                            batch.partition(), identity.node(), identity.runId());
                    results.add(new Result(identity.runId(), true));
                }
                case EXISTS -> {
                    dispatchIfInDoubt(batch.requests().get(i).node().pool(), identity);
                    results.add(new Result(identity.runId(), false));
                }
                case INACTIVE -> results.add(new Result(identity.runId(), false, true));
                case MISMATCH -> {
                    if (mismatch == null) {
                        mismatch = new SwaleException.InputMismatch(identity.runId());
                    }
                    results.add(new Result(identity.runId(), false));
                }
            }
        }
        // every new instance is dispatched before a mismatch is reported
        if (mismatch != null) {
            throw mismatch;
        }
        return results;
    }

    /** One item of a mapped node to submit: its index, value and rerun. */
    public record ItemRequest(int index, tools.jackson.databind.JsonNode value, long rerun) {}

    /**
     * Submits items of one mapped node in index order, each create-only by its run id
     * ({@code {graph}-{partition}-{node}[k]-r{n}}), in one atomic step that creates none beyond the node's
     * {@code max_parallel} active items; dispatches the new ones. Returns how many were new.
     */
    public int submitItems(Graph graph, String definition, Partition partition, Node node, List<ItemRequest> items,
            Map<String, NodeRecord> current, OptionalLong readyUs) {
        if (items.isEmpty()) {
            return 0;
        }
        requireConfigured(node);
        long ready = readyUs.orElseGet(this::nowUs);
        io.swale.store.TaskInput base = TaskInputs.of(graph, node, current);
        String source = node.map().orElseThrow().upstream();
        if (!io.swale.template.ParamsTemplates.referencedUpstreams(node.params()).contains(source)
                && !io.swale.template.LeaseNames.referencedUpstreams(node.leases()).contains(source)) {
            // each item carries its own element: the whole array in every item's stored input would cost N²
            java.util.Map<String, tools.jackson.databind.JsonNode> inputs = new java.util.LinkedHashMap<>(base.inputs());
            inputs.remove(source);
            base = new io.swale.store.TaskInput(base.operator(), base.params(), inputs, base.upstreams());
        }
        List<TaskIdentity> identities = new ArrayList<>();
        List<TaskStore.SubmitRequest> submits = new ArrayList<>();
        for (ItemRequest item : items) {
            String name = io.swale.graph.MapSpec.itemName(node.name(), item.index());
            // an item's record is its own, never the asset's: the node's derived record holds the asset
            TaskIdentity identity = new TaskIdentity(graph.name(), partition, name, Optional.empty(), definition,
                    item.rerun());
            identities.add(identity);
            submits.add(new TaskStore.SubmitRequest(identity.runId(), new PendingInstance(name, Optional.empty(),
                    definition, item.rerun(), node.pool(), node.maxAttempts(), OptionalLong.of(ready)),
                    base.withItem(item.index(), item.value())));
        }
        RunKey key = identities.getFirst().runKey();
        String prefix = key.runId(node.name() + "[", 0);
        prefix = prefix.substring(0, prefix.length() - "-r0".length());
        int maxActive = node.map().map(io.swale.graph.MapSpec::maxParallel).orElse(Integer.MAX_VALUE);
        identities.forEach(id -> TaskStep.reached(TaskStep.Kind.SUBMITTING, id));
        String itemPrefix = prefix;
        List<TaskStore.ItemSubmit> outcomes = inDoubtIfFailing(() -> identities,
                () -> tasks.submitItems(key, itemPrefix, maxActive, submits));
        identities.forEach(id -> TaskStep.reached(TaskStep.Kind.SUBMITTED, id));
        int created = 0;
        String mismatch = null;
        for (int i = 0; i < outcomes.size(); i++) {
            switch (outcomes.get(i)) {
                case NEW -> {
                    created++;
                    inDoubt.created(identities.get(i));
                    recordSubmitted(node, ready);
                    dispatcher.dispatch(node.pool(), identities.get(i));
                    log.debug("submitted item graph={} partition={} runId={}", graph.name(), partition,
                            identities.get(i).runId());
                }
                case MISMATCH -> mismatch = mismatch == null ? identities.get(i).runId() : mismatch;
                case EXISTS -> dispatchIfInDoubt(node.pool(), identities.get(i));
                case INACTIVE, FULL -> { }
            }
        }
        if (mismatch != null) {
            throw new SwaleException.InputMismatch(mismatch);
        }
        return created;
    }
}
