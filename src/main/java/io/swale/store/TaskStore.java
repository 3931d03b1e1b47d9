package io.swale.store;

import java.util.List;
import java.util.Optional;

/**
 * Task-instance transitions. Each is one atomic Redis script on the keys of one graph run, so it is
 * one round trip and works unchanged on Redis Cluster.
 */
public interface TaskStore {
    enum Submit { NEW, EXISTS, MISMATCH }

    /** The request record written with a new submission (a Submitted rerun, spec §10), only if it is new. */
    record RequestWrite(String id, String recordJson, long handledAtMs) {}

    /** The outcome of a claim. */
    sealed interface Claim {
        /** @param submittedMs when the instance was first submitted (Redis time, as nowMs) */
        record Claimed(long token, long attempt, long maxAttempts, long step, String input, Optional<String> stepState,
                long nowMs, long submittedMs)
                implements Claim {
            public Claimed(long token, long attempt, long maxAttempts, long step, String input,
                    Optional<String> stepState, long nowMs) {
                this(token, attempt, maxAttempts, step, input, stepState, nowMs, nowMs);
            }
        }

        /** The instance is unknown or not pending (running elsewhere, cancelled, terminated). */
        record Refused(String state) implements Claim {}
    }

    enum Heartbeat { RUNNING, CANCELLING, LOST }

    enum Finish { OK, CANCELLING, LOST, UNKNOWN }

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

    enum Cancel { CANCELLED, CANCELLING, INACTIVE }

    /** The outcome of giving a lease back at shutdown. */
    enum GiveBack { RELEASED, CANCELLING, LOST }

    /** A waiting instance in the delayed set. */
    record Delayed(RunKey key, String runId) {}

    default Submit submit(RunKey key, String runId, String instanceJson, String inputJson) {
        return submit(key, runId, instanceJson, inputJson, Optional.empty());
    }

    /** Creates the instance if its run id is unknown; the request write commits only with a new instance. */
    Submit submit(RunKey key, String runId, String instanceJson, String inputJson, Optional<RequestWrite> request);

    /** Claims a pending instance for {@code worker}: attempt + 1, a new fencing token, a lease from Redis time. */
    Claim claim(RunKey key, String runId, long leaseMs, String worker);

    /** One instance of {@link #claimAll}: the graph run it belongs to and its run id. */
    record ClaimRequest(RunKey key, String runId) {}

    /**
     * Claims several instances, each its own atomic script as {@link #claim}, sent together: one round trip
     * for a whole poll of dispatches. Outcomes in the order of the requests.
     */
    default List<Claim> claimAll(List<ClaimRequest> requests, long leaseMs, String worker) {
        return requests.stream().map(r -> claim(r.key(), r.runId(), leaseMs, worker)).toList();
    }

    /** One submission of {@link #submitAll}. */
    record SubmitRequest(String runId, String instanceJson, String inputJson) {}

    /**
     * Several submissions to one graph run, each its own atomic script as {@link #submit}, sent together:
     * one round trip for all of them. Outcomes in the order of the requests.
     */
    default List<Submit> submitAll(RunKey key, List<SubmitRequest> requests) {
        return requests.stream().map(r -> submit(key, r.runId(), r.instanceJson(), r.inputJson())).toList();
    }

    Heartbeat heartbeat(RunKey key, String runId, long token, long leaseMs);

    /** Terminates the instance held with {@code token}: node record, terminal state and history entry at once. */
    Finish finish(RunKey key, String runId, long token, String recordField, String recordJson, String status,
            long rerun, String error);

    Park park(RunKey key, String runId, long token, long delayMs, String error, boolean nextStep,
            String stepState);

    /** A waiting instance whose delay is over becomes pending again; returns it when it did. */
    Optional<TaskInstance> releaseDue(RunKey key, String runId);

    boolean redispatchIfStale(RunKey key, String runId, long staleMs);

    Reap reap(RunKey key, String runId);

    /** Running → pending with the token bumped and the attempt not counted (a worker shutting down). */
    GiveBack giveBack(RunKey key, String runId, long token, String reason);

    /** The ended attempts of one instance, oldest first (capped). */
    List<AttemptRecord> history(RunKey key, String runId);

    /** The ended attempts of every instance of a run, by run id. */
    java.util.Map<String, List<AttemptRecord>> histories(RunKey key);

    Cancel cancel(RunKey key, String runId, String recordField, String cancelledRecordJson, long rerun);

    void scheduleDelayed(RunKey key, String runId, long dueMs);

    List<Delayed> dueDelayed(int limit);

    void removeDelayed(RunKey key, String runId);

    /**
     * The store's clock (the one the scripts compare leases and due times with), ms. Lets a caller skip a
     * transition that cannot apply yet; the default never lets it skip.
     */
    default long serverTimeMs() {
        return Long.MAX_VALUE;
    }
}
