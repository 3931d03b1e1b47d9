package io.swale.store;

import java.util.Optional;

/** The lifecycle state of a task instance in Redis. */
public enum InstanceStatus {
    PENDING("pending"),
    RUNNING("running"),
    WAITING("waiting"),
    CANCELLING("cancelling"),
    SUCCEEDED("succeeded"),
    FAILED("failed"),
    CANCELLED("cancelled");

    private final String wireName;

    InstanceStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isActive() {
        return this == PENDING || this == RUNNING || this == WAITING || this == CANCELLING;
    }

    /** Held by a worker under a lease: running, or running and asked to stop. */
    public boolean holdsLease() {
        return this == RUNNING || this == CANCELLING;
    }

    public static Optional<InstanceStatus> fromWireName(String name) {
        for (InstanceStatus s : values()) {
            if (s.wireName.equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
