package io.swale.run;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.store.RecordField;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spec §14 #6: a task instance that ended but whose node record is missing (a record deleted by hand, or lost
 * with a Redis write) gets its record again from its own stored state, never from a second execution. Without it
 * the run waits forever: the instance's run id exists, so the node is never submitted again, and no record says it
 * ended. An instance does not keep its output, so a succeeded record comes back with its output omitted, which
 * downstream templates read as {@code null} (§5.4), as they read an output too large to keep.
 */
final class LostRecords {
    private static final Logger log = LoggerFactory.getLogger(LostRecords.class);

    private final TaskStore tasks;

    LostRecords(TaskStore tasks) {
        this.tasks = tasks;
    }

    /**
     * Writes the record of each instance of {@code view} that ended without one of its rerun, only while the run
     * record is still the one read and active (a rerun committed since wins); answers how many it wrote.
     * {@code nowMs} (the store's time) dates a record whose instance's end time was not kept.
     */
    int restore(RunView view, long nowMs) {
        int written = 0;
        for (TaskInstance i : view.instances().values()) {
            Optional<NodeRecord> record = derived(view, i, nowMs);
            if (record.isEmpty()) {
                continue;
            }
            RecordField field = new RecordField(i.node(), i.asset());
            if (tasks.derive(view.key(), view.version(), field, record.get()) == TaskStore.Derive.WRITTEN) {
                written++;
                log.warn("node record re-derived from its ended instance graph={} partition={} node={} runId={} "
                        + "status={}", view.key().graph(), view.key().partition(), i.node(), i.runId(),
                        record.get().status().wireName());
            }
        }
        return written;
    }

    /** The record {@code i}'s stored state gives, when it has ended and its node holds no record of its rerun. */
    static Optional<NodeRecord> derived(RunView view, TaskInstance i, long nowMs) {
        Optional<NodeStatus> status = switch (i.status()) {
            case SUCCEEDED -> Optional.of(NodeStatus.SUCCEEDED);
            case FAILED -> Optional.of(NodeStatus.FAILED);
            case CANCELLED -> Optional.of(NodeStatus.CANCELLED);
            case PENDING, RUNNING, WAITING, CANCELLING -> Optional.empty();
        };
        if (status.isEmpty()) {
            return Optional.empty();
        }
        NodeRecord stored = view.nodeRecords().get(new RecordField(i.node(), i.asset()).key());
        if (stored != null && stored.rerun() >= i.rerun()) {
            return Optional.empty();
        }
        Optional<String> error = switch (status.get()) {
            case SUCCEEDED -> Optional.empty();
            case FAILED -> Optional.of(i.owedDeadLetter().or(i::lastError)
                    .orElse("the instance failed; its node record was lost"));
            case CANCELLED -> Optional.of("the instance was cancelled; its node record was lost");
        };
        return Optional.of(new NodeRecord(status.get(), i.runId(), i.definition(), i.rerun(), i.endedMs().orElse(nowMs),
                Optional.empty(), status.get() == NodeStatus.SUCCEEDED, error));
    }
}
