package io.swale.readiness;

import io.swale.record.NodeStatus;

/** The state of a node within a graph run: from its current record, or derived when it has none. */
public enum NodeState {
    SUCCEEDED("succeeded"),
    FAILED("failed"),
    CANCELLED("cancelled"),
    READY("ready"),
    WAITING("waiting"),
    BLOCKED("blocked");

    private final String wireName;

    NodeState(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Ready or waiting: the node may still run without a rerun. */
    public boolean isOpen() {
        return this == READY || this == WAITING;
    }

    static NodeState of(NodeStatus status) {
        return switch (status) {
            case SUCCEEDED -> SUCCEEDED;
            case FAILED -> FAILED;
            case CANCELLED -> CANCELLED;
        };
    }
}
