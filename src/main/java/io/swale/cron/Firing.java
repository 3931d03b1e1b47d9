package io.swale.cron;

import io.swale.graph.Partition;
import io.swale.graph.Partitioning;
import java.util.Objects;
import java.util.Optional;

/**
 * One firing of a schedule (spec §4.2): it ends an interval, and its run is for the interval's start.
 *
 * @param fireMs the occurrence that fired, ms since the epoch
 * @param previousFireMs the occurrence of the expression immediately before it, whether or not it fired
 */
public record Firing(long fireMs, Optional<Long> previousFireMs) {
    public Firing {
        Objects.requireNonNull(previousFireMs, "previousFireMs");
    }

    /** {@code of_time(partitioning, previous_fire_ms)}; empty when there is no previous occurrence or no partition. */
    public Optional<Partition> partition(Partitioning partitioning) {
        return previousFireMs.flatMap(partitioning::ofTime);
    }
}
