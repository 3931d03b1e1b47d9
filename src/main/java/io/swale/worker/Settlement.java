package io.swale.worker;

import io.swale.operator.OperatorResult;
import io.swale.record.NodeStatus;
import io.swale.store.TaskStore;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The end of an attempt, with the claim's token (spec §8.2): finish the instance, park it for a retry or its
 * next step, or dead-letter it; then count how the attempt ended.
 */
public final class Settlement {
    private static final Logger log = LoggerFactory.getLogger(Settlement.class);
    private static final String CANCELLED = CancelReason.RUN_CANCELLED.message();

    private final TaskStore tasks;
    private final Terminations terminations;
    private final Backoff backoff;
    private final SwaleMetrics metrics;

    public Settlement(TaskStore tasks, Terminations terminations, Backoff backoff, SwaleMetrics metrics) {
        this.tasks = tasks;
        this.terminations = terminations;
        this.backoff = backoff;
        this.metrics = metrics;
    }

    /**
     * Settles what the operator returned, or a cancelled end when the run was cancelled while the attempt
     * ran (whatever the attempt produced), and records the attempt's outcome and time since {@code t0}.
     */
    void settle(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool, OperatorResult result, boolean cancelled,
            long t0) {
        OperatorResult settled = cancelled ? new OperatorResult.Failed(CANCELLED) : result;
        switch (settled) {
            case OperatorResult.Succeeded s -> end(id, claim, NodeStatus.SUCCEEDED, Optional.of(s.output()), Optional.empty());
            case OperatorResult.Failed f -> end(id, claim, cancelled ? NodeStatus.CANCELLED : NodeStatus.FAILED,
                    Optional.empty(), Optional.of(f.reason()));
            case OperatorResult.Continue c -> park(id, claim, c.delay().toMillis(), "", true,
                    Optional.of(c.state() == null ? JsonNodeFactory.instance.nullNode() : c.state()));
            case OperatorResult.TransientError t -> {
                if (claim.attempt() < claim.maxAttempts()) {
                    park(id, claim, backoff.delayMs(claim.attempt()), t.message(), false, Optional.empty());
                } else {
                    afterEnd(id, claim, terminations.deadLetter(id, claim.token(), pool, claim.attempt(),
                            claim.maxAttempts(), t.message()));
                }
            }
            case OperatorResult.PermanentError p -> afterEnd(id, claim, terminations.deadLetter(id, claim.token(), pool,
                    claim.attempt(), claim.maxAttempts(), p.message()));
        }
        metrics.attemptFinished(pool, cancelled ? "cancelled" : outcome(result, claim), System.nanoTime() - t0);
    }

    /** Ends an instance whose run was cancelled while this worker held it (token {@code token}). */
    void endCancelled(TaskIdentity id, long token) {
        terminations.terminate(id, token, NodeStatus.CANCELLED, Optional.empty(), Optional.of(CANCELLED));
    }

    private static String outcome(OperatorResult result, TaskStore.Claim.Claimed claim) {
        return switch (result) {
            case OperatorResult.Succeeded s -> "succeeded";
            case OperatorResult.Failed f -> "failed";
            case OperatorResult.Continue c -> "continue";
            case OperatorResult.TransientError t -> claim.attempt() < claim.maxAttempts() ? "retry" : "failed";
            case OperatorResult.PermanentError p -> "failed";
        };
    }

    private void end(TaskIdentity id, TaskStore.Claim.Claimed claim, NodeStatus status, Optional<JsonNode> output,
            Optional<String> error) {
        afterEnd(id, claim, terminations.terminate(id, claim.token(), status, output, error));
    }

    /** A run cancelled while the attempt ran ends cancelled, whatever the attempt produced. */
    private void afterEnd(TaskIdentity id, TaskStore.Claim.Claimed claim, TaskStore.Finish outcome) {
        if (outcome == TaskStore.Finish.CANCELLING) {
            terminations.terminate(id, claim.token(), NodeStatus.CANCELLED, Optional.empty(), Optional.of(CANCELLED));
        } else if (outcome != TaskStore.Finish.OK) {
            log.warn("settle refused runId={} attempt={} outcome={}", id.runId(), claim.attempt(), outcome);
        }
    }

    private void park(TaskIdentity id, TaskStore.Claim.Claimed claim, long delayMs, String error, boolean nextStep,
            Optional<JsonNode> stepState) {
        switch (tasks.park(id.runKey(), id.runId(), claim.token(), delayMs, error, nextStep, stepState)) {
            case TaskStore.Park.Waiting w -> tasks.scheduleDelayed(id.runKey(), id.runId(), w.dueMs());
            case TaskStore.Park.Cancelling c -> terminations.terminate(id, claim.token(), NodeStatus.CANCELLED,
                    Optional.empty(), Optional.of(CANCELLED));
            case TaskStore.Park.Lost l -> log.warn("park refused runId={}: the claim ended", id.runId());
        }
    }
}
