package io.swale.task;

import io.swale.record.NodeStatus;

/** Announces a node record that was just written (spec §5.6); sent only after the record committed. */
public interface EventPublisher {
    void taskTerminated(TaskIdentity identity, NodeStatus status);
}
