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
        Optional<String> worker) {}
