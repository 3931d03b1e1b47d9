package io.swale.task;


/**
 * What the scheduler and the pool workers measure. The core calls this port; the Micrometer adapter
 * names the meters (see docs/operations.md).
 */
public interface SwaleMetrics {
    SwaleMetrics NONE = new SwaleMetrics() {};

    /** A graph run was created. */
    default void runStarted(String graph) {}

    /** A graph run reached a final state: complete, failed or cancelled. */
    default void runSettled(String graph, String state) {}

    /** A new task instance was submitted {@code readyToSubmittedMs} after its node became ready. */
    default void submitted(String pool, long readyToSubmittedMs) {}

    /** The first attempt of a task instance started {@code submittedToStartedMs} after its submission. */
    default void started(String pool, long submittedToStartedMs) {}

    /** An attempt ended; {@code result} is succeeded, failed, cancelled, retry or continue. */
    default void attemptFinished(String pool, String result, long durationNanos) {}

    /** A task instance terminated with a node record: succeeded, failed or cancelled. */
    default void taskTerminated(String pool, String outcome) {}

    /** A reconciler pass ended. */
    default void reconcilerPass(long durationNanos, ReconcilePass pass) {}

    /**
     * A repair pass failed on one run (or one expired lease, or one delayed entry) and went on to the next;
     * {@code pass} is reconciler, reaper or delayed.
     */
    default void repairFailed(String pass) {}

    /** A record went to a dead-letter topic. */
    default void deadLetter(String topic) {}

    /** A heartbeat of a running attempt (cancel poll or lease extension) got no answer from the store. */
    default void heartbeatFailed(String pool) {}

    /** A running attempt's lease passed without an extension: the worker stopped the attempt. */
    default void leaseLost(String pool) {}

    /** A step of settling an attempt failed transiently and is tried again while the lease holds. */
    default void settleRetried(String pool) {}

    /** An attempt's result was dropped: its settle could not reach the store before the lease ended. */
    default void settleAbandoned(String pool) {}

    /**
     * A listener retries a record of {@code topic}; {@code cause} is {@code unavailable} (Redis or Kafka did
     * not answer), {@code catching_up} or {@code unknown}.
     */
    default void listenerRetry(String topic, String cause) {}

    /**
     * A dispatch or event ({@code kind}) Kafka did not take; {@code reason} is {@code unreachable} (given up
     * while Kafka did not answer), {@code unsent} (not tried, Kafka being away) or {@code refused}.
     */
    default void sendLost(String kind, String reason) {}
}
