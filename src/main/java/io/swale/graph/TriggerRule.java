package io.swale.graph;

import java.util.Optional;

/** When a task node may run, given the current records of its upstreams. */
public enum TriggerRule {
    ALL_SUCCEEDED("all_succeeded"),
    ALL_DONE("all_done"),
    ONE_FAILED("one_failed");

    private final String wireName;

    TriggerRule(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<TriggerRule> fromWireName(String name) {
        for (TriggerRule r : values()) {
            if (r.wireName.equals(name)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
