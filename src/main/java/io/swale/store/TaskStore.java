package io.swale.store;

import java.util.List;
import java.util.Optional;

/**
 * Task-instance transitions. Each is one atomic Redis script on the keys of one graph run, so it is
 * one round trip and works unchanged on Redis Cluster.
 */
public interface TaskStore {
    enum Submit { NEW, EXISTS, MISMATCH }

    /** The outcome of a claim. */
    sealed interface Claim {
        record Claimed(long token, long attempt, long maxAttempts, long step, String input, Optional<String> stepState,
                long nowMs)
                implements Claim {}

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

    /** A waiting instance in the delayed set. */
    record Delayed(RunKey key, String runId) {}

    Submit submit(RunKey key, String runId, String instanceJson, String inputJson);

    /** One submission of {@link #submitAll}. */
    record SubmitRequest(String runId, String instanceJson, String inputJson) {}

    /**
     * Several submissions to one graph run, each its own atomic script as {@link #submit}, sent together:
     * one round trip for all of them. Outcomes in the order of the requests.
     */
    default List<Submit> submitAll(RunKey key, List<SubmitRequest> requests) {
        return requests.stream().map(r -> submit(key, r.runId(), r.instanceJson(), r.inputJson())).toList();
    }

    Claim claim(RunKey key, String runId, long leaseMs);

    Heartbeat heartbeat(RunKey key, String runId, long token, long leaseMs);

    Finish finish(RunKey key, String runId, long token, String recordField, String recordJson, String status,
            long rerun);

    Park park(RunKey key, String runId, long token, long delayMs, String error, boolean nextStep,
            String stepState);

    /** A waiting instance whose delay is over becomes pending again; returns it when it did. */
    Optional<TaskInstance> releaseDue(RunKey key, String runId);

    boolean redispatchIfStale(RunKey key, String runId, long staleMs);

    Reap reap(RunKey key, String runId);

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
