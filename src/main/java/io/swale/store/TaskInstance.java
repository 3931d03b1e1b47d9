package io.swale.store;

import java.util.Optional;

/**
 * The Redis-held state of one task instance (one run id).
 *
 * @param attempt attempts used in the current step
 * @param maxAttempts attempts each step gets (retries + 1)
 * @param token fencing token, incremented by every claim
 * @param leaseUntilMs lease deadline of the running attempt (Redis time)
 * @param dueMs when a waiting instance (retry or continuation) is dispatched again
 * @param dispatchedMs when the instance was last dispatched
 * @param lastError the error of the last failed attempt
 * @param worker the worker that made the last claim
 * @param endedMs when the instance ended (Redis time)
 * @param owedDeadLetter the error of an instance that ended dead-lettered and whose dead-letter copy is not yet
 *     known to be sent (spec §14 #12): the reconciler sends it again
 */
public record TaskInstance(
        String runId,
        InstanceStatus status,
        String node,
        Optional<String> asset,
        String definition,
        long rerun,
        String pool,
        long step,
        long attempt,
        long maxAttempts,
        long token,
        Optional<Long> leaseUntilMs,
        Optional<Long> dueMs,
        long dispatchedMs,
        Optional<Long> startedMs,
        Optional<String> lastError,
        Optional<String> worker,
        Optional<Long> endedMs,
        Optional<String> owedDeadLetter) {

    /** An instance that owes no dead-letter copy, its end time not read. */
    public TaskInstance(String runId, InstanceStatus status, String node, Optional<String> asset, String definition,
            long rerun, String pool, long step, long attempt, long maxAttempts, long token, Optional<Long> leaseUntilMs,
            Optional<Long> dueMs, long dispatchedMs, Optional<Long> startedMs, Optional<String> lastError,
            Optional<String> worker) {
        this(runId, status, node, asset, definition, rerun, pool, step, attempt, maxAttempts, token, leaseUntilMs, dueMs,
                dispatchedMs, startedMs, lastError, worker, Optional.empty(), Optional.empty());
    }
}
