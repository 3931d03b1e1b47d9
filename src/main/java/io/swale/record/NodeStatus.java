package io.swale.record;

import java.util.Optional;

/** The status of a node record: how a task instance terminated. */
public enum NodeStatus {
    SUCCEEDED("succeeded"),
    FAILED("failed"),
    CANCELLED("cancelled");

    private final String wireName;

    NodeStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<NodeStatus> fromWireName(String name) {
        for (NodeStatus s : values()) {
            if (s.wireName.equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
