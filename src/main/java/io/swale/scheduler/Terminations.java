package io.swale.scheduler;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.store.TaskStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Ends a task instance: the node record and the terminal state in one script (fenced by the claim's
 * token), then the event. A crash before the event is healed by the reconciler, which re-reads records.
 */
public final class Terminations {
    private final TaskStore tasks;
    private final EventPublisher events;
    private final Clock clock;
    private final SwaleMetrics metrics;

    public Terminations(TaskStore tasks, EventPublisher events, Clock clock) {
        this(tasks, events, clock, SwaleMetrics.NONE);
    }

    public Terminations(TaskStore tasks, EventPublisher events, Clock clock, SwaleMetrics metrics) {
        this.tasks = tasks;
        this.events = events;
        this.clock = clock;
        this.metrics = metrics;
    }

    public TaskStore.Finish terminate(TaskIdentity identity, long token, NodeStatus status, Optional<JsonNode> output,
            Optional<String> error) {
        return terminate(identity, "unknown", token, status, output, error);
    }

    public TaskStore.Finish terminate(TaskIdentity identity, String pool, long token, NodeStatus status,
            Optional<JsonNode> output, Optional<String> error) {
        NodeRecord record = new NodeRecord(status, identity.runId(), identity.definition(), identity.rerun(),
                clock.millis(), output, false, error);
        String json = new String(RecordCodec.encode(record), StandardCharsets.UTF_8);
        TaskStore.Finish outcome = tasks.finish(identity.runKey(), identity.runId(), token, identity.recordField(), json,
                status.wireName(), identity.rerun());
        if (outcome == TaskStore.Finish.OK) {
            metrics.taskTerminated(pool, status.wireName());
            events.taskTerminated(identity, status);
        }
        return outcome;
    }
}
