package io.swale.task;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Ends a task instance: the node record, the terminal state and the attempt's history entry in one script
 * (fenced by the claim's token), then the event. A crash before the event is healed by the reconciler,
 * which re-reads records.
 */
public final class Terminations {
    private static final Logger log = LoggerFactory.getLogger(Terminations.class);

    private final TaskStore tasks;
    private final EventPublisher events;
    private final DeadLetters deadLetters;
    private final Clock clock;
    private final SwaleMetrics metrics;
    private final GrowthPlanner growth;

    public Terminations(TaskStore tasks, EventPublisher events, DeadLetters deadLetters, Clock clock,
            SwaleMetrics metrics) {
        this(tasks, events, deadLetters, clock, metrics, GrowthPlanner.NONE);
    }

    /** {@code growth} reads a succeeded output's declared growth (docs/dynamic-graphs.md §8). */
    public Terminations(TaskStore tasks, EventPublisher events, DeadLetters deadLetters, Clock clock,
            SwaleMetrics metrics, GrowthPlanner growth) {
        this.growth = growth;
        this.tasks = tasks;
        this.events = events;
        this.deadLetters = deadLetters;
        this.clock = clock;
        this.metrics = metrics;
    }

    public TaskStore.Finish terminate(TaskIdentity identity, String pool, long token, NodeStatus status,
            Optional<JsonNode> output, Optional<String> error) {
        return terminate(identity, pool, token, status, output, false, error);
    }

    /** {@code outputOmitted}: a succeeded output too large to hold, recorded as omitted (§5.4) and growing nothing. */
    public TaskStore.Finish terminate(TaskIdentity identity, String pool, long token, NodeStatus status,
            Optional<JsonNode> output, boolean outputOmitted, Optional<String> error) {
        return terminate(identity, pool, token, status, output, outputOmitted, error, false);
    }

    private TaskStore.Finish terminate(TaskIdentity identity, String pool, long token, NodeStatus status,
            Optional<JsonNode> output, boolean outputOmitted, Optional<String> error, boolean deadLettered) {
        // a failed or cancelled instance's output is not read: it grows nothing (§8.4)
        GrowthPlanner.Plan plan = status == NodeStatus.SUCCEEDED && output.isPresent()
                ? growth.plan(identity, output.get()) : new GrowthPlanner.Plan.None();
        Optional<String> grown = Optional.empty();
        switch (plan) {
            case GrowthPlanner.Plan.None n -> { }
            case GrowthPlanner.Plan.Grow g -> grown = Optional.of(g.stored());
            case GrowthPlanner.Plan.Fail f -> {
                // a bad growth fails the node for good, and nothing of it is stored
                status = NodeStatus.FAILED;
                output = Optional.empty();
                outputOmitted = false;
                error = Optional.of(f.error());
                log.info("declared growth refused graph={} partition={} node={} runId={} faults={}", identity.graph(),
                        identity.partition(), identity.node(), identity.runId(), f.error().lines().count());
            }
        }
        NodeRecord record = new NodeRecord(status, identity.runId(), identity.definition(), identity.rerun(),
                clock.millis(), output, outputOmitted && status == NodeStatus.SUCCEEDED, error);
        TaskStore.Finish outcome = deadLettered
                ? tasks.finishDeadLettered(identity.runKey(), identity.recordField(), token, record)
                : tasks.finish(identity.runKey(), identity.recordField(), token, record, grown);
        if (outcome == TaskStore.Finish.OK) {
            metrics.taskTerminated(pool, status.wireName());
        }
        // a retried finish whose first try committed unanswered has not sent its event yet
        if (outcome == TaskStore.Finish.OK || outcome == TaskStore.Finish.SETTLED) {
            TaskStep.reached(TaskStep.Kind.FINISHED, identity);
            events.taskTerminated(identity, status);
        }
        return outcome;
    }

    /**
     * Ends the instance {@code failed} with {@code error} (a permanent error, or the last one when attempts
     * ran out), then sends the informational dead-letter copy with the attempt history. Only the holder whose
     * termination committed sends it, so a fenced-out holder never adds a second copy. The instance owes the copy
     * from its end until the send is acknowledged; one that is not (a lost reply, a failed send) is sent again by
     * the reconciler ({@link #sendOwed}), so a copy may be sent twice, and is lost only when given up: refused by
     * the broker for itself, or still owed after the reconciler's limit.
     */
    public TaskStore.Finish deadLetter(TaskIdentity identity, long token, String pool, long attempts, long maxAttempts,
            String error) {
        TaskStore.Finish outcome = terminate(identity, pool, token, NodeStatus.FAILED, Optional.empty(), false,
                Optional.of(error), true);
        if (outcome == TaskStore.Finish.OK || outcome == TaskStore.Finish.SETTLED) {
            send(pool, identity, attempts, maxAttempts, error);
            log.info("dead-lettered graph={} partition={} node={} runId={} attempts={}/{} error={}", identity.graph(),
                    identity.partition(), identity.node(), identity.runId(), attempts, maxAttempts, error);
        }
        return outcome;
    }

    /** What became of a dead-letter copy. */
    public enum Delivery {
        /** Stored where it goes, its debt ended. */
        SENT,
        /** Not sent this time: still owed, sent again by the reconciler. */
        NOT_SENT,
        /** No try can send it: given up, its debt ended. */
        GIVEN_UP
    }

    /**
     * Sends again the dead-letter copy that {@code instance} ({@code identity}) still owes (its first send failed,
     * or the acknowledgement was lost).
     */
    public Delivery sendOwed(TaskIdentity identity, TaskInstance instance) {
        return instance.owedDeadLetter().map(error -> {
            Delivery d = send(instance.pool(), identity, instance.attempt(), instance.maxAttempts(), error);
            if (d == Delivery.SENT) {
                log.info("owed dead letter sent graph={} partition={} node={} runId={}", identity.graph(),
                        identity.partition(), identity.node(), identity.runId());
            }
            return d;
        }).orElse(Delivery.SENT);
    }

    /** Gives up the dead-letter copy {@code identity} has owed for too long: its debt ends unpaid. */
    public void giveUpOwed(TaskIdentity identity, String why) {
        log.error("dead letter given up graph={} partition={} node={} runId={} reason={}", identity.graph(),
                identity.partition(), identity.node(), identity.runId(), why);
        tasks.deadLetterSent(identity.runKey(), identity.runId());
    }

    /** Sends the copy with the instance's attempt history, then ends its debt. */
    private Delivery send(String pool, TaskIdentity identity, long attempts, long maxAttempts, String error) {
        Delivery delivery;
        try {
            deadLetters.send(new DeadLetters.DeadLetter(pool, identity, attempts, maxAttempts, error,
                    tasks.history(identity.runKey(), identity.runId())));
            delivery = Delivery.SENT;
        } catch (DeadLetters.Undeliverable e) {
            log.error("dead letter cannot be sent, given up graph={} partition={} node={} runId={} error={}",
                    identity.graph(), identity.partition(), identity.node(), identity.runId(), e.getMessage());
            delivery = Delivery.GIVEN_UP;
        } catch (RuntimeException e) {
            log.warn("dead letter not sent, the reconciler sends it again graph={} partition={} node={} runId={}"
                    + " error={}", identity.graph(), identity.partition(), identity.node(), identity.runId(),
                    e.toString());
            return Delivery.NOT_SENT;
        }
        try {
            tasks.deadLetterSent(identity.runKey(), identity.runId());
        } catch (RuntimeException e) {
            // its debt stands: the reconciler sends a second copy
            log.warn("dead letter's debt not ended, the reconciler sends it again graph={} partition={} node={}"
                    + " runId={} delivery={} error={}", identity.graph(), identity.partition(), identity.node(),
                    identity.runId(), delivery, e.toString());
        }
        return delivery;
    }
}
