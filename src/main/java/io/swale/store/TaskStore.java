package io.swale.store;

import io.swale.record.NodeRecord;
import io.swale.record.RequestRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Task-instance transitions. Each is one atomic Redis script on the keys of one graph run, so it is
 * one round trip and works unchanged on Redis Cluster.
 */
public interface TaskStore {
    /** INACTIVE: the run is no longer active (settled or cancelled), so no new instance was created. */
    enum Submit { NEW, EXISTS, MISMATCH, INACTIVE }

    /**
     * The request record written with a new submission (a Submitted rerun, spec §10), only if it is new; its
     * expiry entry is at its handled time.
     */
    record RequestWrite(RequestRecord record) {
        public RequestWrite {
            java.util.Objects.requireNonNull(record, "record");
        }
    }

    /** The outcome of a claim. */
    sealed interface Claim {
        /**
         * @param input the task input; empty when the stored input or step state cannot be read (the attempt
         *     then fails permanently)
         * @param stepState what the last step of a continuing task left for the next one
         * @param submittedMs when the instance was first submitted (Redis time, as nowMs)
         */
        record Claimed(long token, long attempt, long maxAttempts, long step, Optional<TaskInput> input,
                Optional<JsonNode> stepState, long nowMs, long submittedMs)
                implements Claim {}

        /** The instance is unknown or not pending (running elsewhere, cancelled, terminated). */
        record Refused(String state) implements Claim {}
    }

    enum Heartbeat { RUNNING, CANCELLING, LOST }

    /**
     * The outcome of a finish. SETTLED: this token already ended the instance with this status, a retried
     * finish whose first try committed but whose answer was lost; nothing is written again.
     */
    enum Finish { OK, SETTLED, CANCELLING, LOST, UNKNOWN }

    /** The outcome of parking an instance for a retry or continuation. */
    sealed interface Park {
        record Waiting(long dueMs) implements Park {}

        record Cancelling() implements Park {}

        record Lost() implements Park {}
    }

    /** The outcome of checking an expired lease. */
    sealed interface Reap {
        record None() implements Reap {}

        record Redispatch() implements Reap {}

        /** The holder is gone while cancelling; terminate cancelled with this token. */
        record Cancel(long token) implements Reap {}

        /** No attempt left; terminate failed with this token. */
        record Exhausted(long token) implements Reap {}
    }

    /**
     * What a cancel did: ended a pending or waiting instance, asked a running one to stop, found it already asked
     * (nothing new), or found it ended.
     */
    enum Cancel { CANCELLED, CANCELLING, ALREADY_CANCELLING, INACTIVE }

    /** The outcome of giving a lease back at shutdown. */
    enum GiveBack { RELEASED, CANCELLING, LOST }

    /** A waiting instance in the delayed set, with the due time its entry had when read. */
    record Delayed(RunKey key, String runId, long dueMs) {}

    /**
     * An instance whose indexed lease had ended when read, with the lease end its entry had: a candidate for the
     * reaper, whose own record says whether it is still held.
     */
    record ExpiredLease(RunKey key, String runId, long leaseUntilMs) {}

    default Submit submit(RunKey key, String runId, PendingInstance instance, TaskInput input) {
        return submit(key, runId, instance, input, Optional.empty());
    }

    /**
     * Creates the instance if its run id is unknown; the request write commits only with a new instance. An
     * existing run id answers EXISTS when its stored input equals {@code input}, else MISMATCH. A new instance
     * of a run whose record is no longer active is refused with INACTIVE, atomically with the run's state.
     */
    Submit submit(RunKey key, String runId, PendingInstance instance, TaskInput input,
            Optional<RequestWrite> request);

    /**
     * Claims a pending instance for {@code worker}: attempt + 1, a new fencing token, a lease from Redis time.
     * Refused when the instance is not pending, or when its run is cancelled (the cancel is committed on the
     * run record before its instances are cancelled). A {@code claimId} unique among the worker's claims makes
     * the claim safe to ask again: asked again by the same worker with the same id while its lease runs, it
     * answers the attempt it started (its reply was lost after it committed) rather than refuse it as running,
     * which would leave that attempt to burn until its lease expires. Empty for none.
     */
    Claim claim(RunKey key, String runId, long leaseMs, String worker, String claimId);

    /** {@link #claim(RunKey, String, long, String, String)} without a claim id: asked again, it is refused. */
    default Claim claim(RunKey key, String runId, long leaseMs, String worker) {
        return claim(key, runId, leaseMs, worker, "");
    }

    /** One instance of {@link #claimAll}: the graph run it belongs to, its run id and the claim's id (or empty). */
    record ClaimRequest(RunKey key, String runId, String claimId) {
        public ClaimRequest(RunKey key, String runId) {
            this(key, runId, "");
        }
    }

    /**
     * Claims several instances, each its own atomic script as {@link #claim}, sent together: one round trip
     * for a whole poll of dispatches. Outcomes in the order of the requests.
     */
    default List<Claim> claimAll(List<ClaimRequest> requests, long leaseMs, String worker) {
        return requests.stream().map(r -> claim(r.key(), r.runId(), leaseMs, worker, r.claimId())).toList();
    }

    /** One submission of {@link #submitAll}. */
    record SubmitRequest(String runId, PendingInstance instance, TaskInput input) {}

    /**
     * Several submissions to one graph run, each its own atomic script as {@link #submit}, sent together:
     * one round trip for all of them. Outcomes in the order of the requests.
     */
    default List<Submit> submitAll(RunKey key, List<SubmitRequest> requests) {
        return requests.stream().map(r -> submit(key, r.runId(), r.instance(), r.input())).toList();
    }

    /** The submissions of one graph run in {@link #submitEach}. */
    record RunSubmits(RunKey key, List<SubmitRequest> requests) {}

    /** What became of one graph run's submissions in {@link #submitEach}. */
    sealed interface RunSubmitted {
        /** Each submission's outcome, in the order of the requests. */
        record Done(List<Submit> outcomes) implements RunSubmitted {}

        /** A script of this run failed; the other runs' submissions stand. */
        record Failed(RuntimeException error) implements RunSubmitted {}
    }

    /**
     * The submissions of several graph runs, each its own atomic script as {@link #submit}, sent together: one
     * round trip for the events of a whole poll. A script that fails fails its own run only. A store that does
     * not answer fails the call (this default, sending each run alone, fails each run instead), and any of the
     * submissions may then have committed.
     */
    default List<RunSubmitted> submitEach(List<RunSubmits> runs) {
        List<RunSubmitted> out = new java.util.ArrayList<>(runs.size());
        for (RunSubmits r : runs) {
            try {
                out.add(new RunSubmitted.Done(submitAll(r.key(), r.requests())));
            } catch (RuntimeException e) {
                out.add(new RunSubmitted.Failed(e));
            }
        }
        return out;
    }

    Heartbeat heartbeat(RunKey key, String runId, long token, long leaseMs);

    /**
     * Terminates the instance {@code record.runId()} held with {@code token}: the node record at
     * {@code field}, the terminal state (the record's status) and the history entry (with the record's error)
     * at once. CANCELLING (nothing written, the instance flagged) when the instance was flagged, or its run
     * is cancelled, and {@code record} is not the cancelled one.
     */
    Finish finish(RunKey key, RecordField field, long token, NodeRecord record);

    /**
     * As {@link #finish(RunKey, RecordField, long, NodeRecord)}, and the node's declared growth (stored text,
     * docs/dynamic-graphs.md §8.3) replaced in the same atomic step: written when present, removed when empty.
     */
    default Finish finish(RunKey key, RecordField field, long token, NodeRecord record, Optional<String> growth) {
        if (growth.isPresent()) {
            throw new UnsupportedOperationException("this store keeps no declared growth");
        }
        return finish(key, field, token, record);
    }

    /**
     * As {@link #finish(RunKey, RecordField, long, NodeRecord)} for an instance that ends dead-lettered (its record
     * failed): in the same atomic step it comes to owe its dead-letter copy, which keeps its run in the active-runs
     * index, so that a copy lost with a reply or a failed send is sent again by the reconciler. The debt ends with
     * {@link #deadLetterSent}.
     */
    Finish finishDeadLettered(RunKey key, RecordField field, long token, NodeRecord record);

    /**
     * The dead-letter copy of {@code runId} was sent: its debt ends, and a settled run with nothing else active or
     * owed leaves the active-runs index. Nothing happens to an instance that owes nothing.
     */
    void deadLetterSent(RunKey key, String runId);

    /** What the reconciler does with a dead-letter copy an instance owes: see {@link #takeOwedDeadLetter}. */
    enum OwedDeadLetter { SEND, WAIT, EXPIRED, NONE }

    /**
     * Whether to send again the dead-letter copy {@code runId} owes: SEND once it has been owed for {@code waitMs}
     * since its end and since the last SEND (taken in the same step, so that two passes at once send one copy),
     * WAIT before that, EXPIRED once it has been owed for {@code limitMs} since its end (to be given up), NONE when
     * it owes nothing.
     */
    OwedDeadLetter takeOwedDeadLetter(RunKey key, String runId, long waitMs, long limitMs);

    /**
     * Parks the instance held with {@code token} until {@code delayMs} from now: a retry of the step, or with
     * {@code nextStep} the next step of a continuing task, which gets {@code stepState}. The instance enters the
     * delayed set, due then, in the same atomic step.
     */
    Park park(RunKey key, String runId, long token, long delayMs, String error, boolean nextStep,
            Optional<JsonNode> stepState);

    /** A waiting instance whose delay is over becomes pending again; returns it when it did. */
    Optional<TaskInstance> releaseDue(RunKey key, String runId);

    /** What {@link #releaseDueOrEarly} did. */
    sealed interface DueRelease {
        /** The instance is pending again. */
        record Released(TaskInstance instance) implements DueRelease {}

        /** Still waiting: its delay is not over by the clock of its own shard. */
        record Early() implements DueRelease {}

        /** Not waiting (done, running, cancelled, gone): nothing to release. */
        record NotWaiting() implements DueRelease {}
    }

    /**
     * As {@link #releaseDue}, telling an instance whose delay is not over yet from one that waits no more: on a
     * Cluster the shard that reads the due entries and the instance's shard may have clocks apart.
     */
    default DueRelease releaseDueOrEarly(RunKey key, String runId) {
        return releaseDue(key, runId).<DueRelease>map(DueRelease.Released::new).orElseGet(DueRelease.NotWaiting::new);
    }

    /**
     * Marks a pending instance dispatched again if its last dispatch is old enough, and answers whether the
     * caller should dispatch it: after {@code staleMs} the first time, then after twice the previous wait each
     * time (capped) until a claim resets it, so a backlog waiting for slots is not dispatched on every pass.
     */
    boolean redispatchIfStale(RunKey key, String runId, long staleMs);

    /**
     * As {@link #redispatchIfStale} after a fault that may have lost dispatches: after {@code staleMs} whatever
     * the earlier redispatches, and not counted in that back-off, so a fault does not delay the periodic repair.
     */
    boolean redispatchAfterFault(RunKey key, String runId, long staleMs);

    Reap reap(RunKey key, String runId);

    /** Running → pending with the token bumped and the attempt not counted (a worker shutting down). */
    GiveBack giveBack(RunKey key, String runId, long token, String reason);

    /** The ended attempts of one instance, oldest first (capped). */
    List<AttemptRecord> history(RunKey key, String runId);

    /** The ended attempts of every instance of a run, by run id. */
    Map<String, List<AttemptRecord>> histories(RunKey key);

    /**
     * Cancels the active instance {@code cancelled.runId()}: a pending or waiting one at once (writing
     * {@code cancelled} at {@code field}), a running one by flagging it for its holder, whose cancelled record
     * then carries {@code cancelled}'s error in place of its own (the first cancel's, when asked again).
     */
    Cancel cancel(RunKey key, RecordField field, NodeRecord cancelled);

    /**
     * As {@link #cancel}, for a cancelled run's instances: only while the run record is still cancelled, so that a
     * rerun which reactivated the run since keeps the instance it submitted ({@link Cancel#INACTIVE} then).
     */
    Cancel cancelOfCancelledRun(RunKey key, RecordField field, NodeRecord cancelled);

    void scheduleDelayed(RunKey key, String runId, long dueMs);

    List<Delayed> dueDelayed(int limit);

    /**
     * Removes the delayed entry only if it still has {@code dueMs}: a re-park since (a new due time) keeps its
     * entry. True when it removed it.
     */
    boolean removeDelayed(RunKey key, String runId, long dueMs);

    /**
     * The indexed leases that ended by {@code nowMs} (server time), at most {@code limitPerShard} of each shard. A
     * claim indexes its lease, a heartbeat moves it, and an attempt's end removes it; a lease claimed before the
     * index existed is not in it.
     */
    List<ExpiredLease> expiredLeases(long nowMs, int limitPerShard);

    /**
     * Removes the index entry of an instance no longer held, only if it still ends at {@code lease.leaseUntilMs()}:
     * a claim or heartbeat since moved it and keeps it. True when it removed it.
     */
    boolean forgetLease(ExpiredLease lease);

    /** The outcome of creating one item of a mapped node; FULL: its node already has its most items active. */
    enum ItemSubmit { NEW, EXISTS, MISMATCH, INACTIVE, FULL }

    /**
     * Creates items of one mapped node in order, each create-only by its run id as {@link #submit}, in one atomic
     * step that first counts the active instances whose run id starts with {@code itemPrefix}: an item that would
     * make more than {@code maxActive} active is not created (FULL). Outcomes in the order of the requests.
     */
    List<ItemSubmit> submitItems(RunKey key, String itemPrefix, int maxActive, List<SubmitRequest> requests);

    /** The outcome of writing a mapped node's derived record. */
    enum Derive { WRITTEN, KEPT, CHANGED, INACTIVE }

    /**
     * Writes the record derived from a mapped node's items at {@code field}, only if the run record is still
     * {@code read} (CHANGED otherwise) and active (INACTIVE otherwise); a stored record at the same or a higher
     * rerun is kept (KEPT).
     */
    Derive derive(RunKey key, RunVersion read, RecordField field, NodeRecord record);

    /**
     * Puts the run record {@code next} only if it is still at version {@code expected} (as
     * {@code RunStore.compareAndPut}), and writes {@code request}'s record (create-once, a rerun of this run) in
     * the same atomic step when the put commits: a rerun's expectation, which is a run-record change, not a
     * submission (spec §10, §14 #18).
     */
    default boolean compareAndPutRun(RunKey key, io.swale.store.RunVersion expected,
            io.swale.record.GraphRunRecord next, RequestWrite request) {
        throw new UnsupportedOperationException("this store cannot write a request record with a run record");
    }

    /**
     * Settles the run record to {@code settled} only if it is still at version {@code expected} (as
     * {@code RunStore.compareAndSettle}, with no instance to check), and writes {@code request}'s record (create-once, a
     * cancel of this run) in the same atomic step when the settle commits: a retried cancel whose first call failed
     * after its cancel committed is answered by its record, not refused as inactive (spec §10).
     */
    default boolean compareAndSettleRun(RunKey key, io.swale.store.RunVersion expected,
            io.swale.record.GraphRunRecord settled, RequestWrite request) {
        throw new UnsupportedOperationException("this store cannot write a request record with a run record");
    }

    /**
     * The stored input of an instance, read before its claim to render its lease names (docs/resources.md);
     * empty when unknown or unreadable.
     */
    default Optional<TaskInput> input(RunKey key, String runId) {
        return Optional.empty();
    }

    /**
     * The store's clock (the one the scripts compare leases and due times with), ms. Lets a caller skip a
     * transition that cannot apply yet; the default never lets it skip.
     */
    default long serverTimeMs() {
        return Long.MAX_VALUE;
    }
}
