package io.swale.record;

import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The record of one graph × one partition.
 *
 * @param expectedReruns per node, the rerun count its record must reach to be current
 */
public record GraphRunRecord(
        String definition,
        long requestedAtMs,
        RunState state,
        Optional<Long> settledAtMs,
        SortedMap<String, Long> expectedReruns) {

    public GraphRunRecord {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(settledAtMs, "settledAtMs");
        expectedReruns = Collections.unmodifiableSortedMap(new TreeMap<>(expectedReruns));
    }

    public static GraphRunRecord started(String definition, long nowMs) {
        return new GraphRunRecord(definition, nowMs, RunState.ACTIVE, Optional.empty(), new TreeMap<>());
    }

    public long expectedRerun(String node) {
        return expectedReruns.getOrDefault(node, 0L);
    }

    /** A record is current when its rerun has reached the expected count of its node. */
    public boolean isCurrent(String node, NodeRecord record) {
        return record.rerun() >= expectedRerun(node);
    }

    public GraphRunRecord withState(RunState newState, Optional<Long> settledAt) {
        return new GraphRunRecord(definition, requestedAtMs, newState, settledAt, expectedReruns);
    }

    public GraphRunRecord withExpectedReruns(SortedMap<String, Long> expected) {
        return new GraphRunRecord(definition, requestedAtMs, state, settledAtMs, expected);
    }
}
