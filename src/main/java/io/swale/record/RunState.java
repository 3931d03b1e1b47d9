package io.swale.record;

import java.util.Optional;

/** The state of a graph run. */
public enum RunState {
    ACTIVE("active"),
    COMPLETE("complete"),
    FAILED("failed"),
    CANCELLED("cancelled");

    private final String wireName;

    RunState(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isSettled() {
        return this != ACTIVE;
    }

    public static Optional<RunState> fromWireName(String name) {
        for (RunState s : values()) {
            if (s.wireName.equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
