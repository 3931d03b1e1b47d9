package io.swale.trigger;

import io.swale.graph.Partition;
import java.util.List;
import java.util.Optional;

/** A message on {@code swale.triggers}, in one of its three forms (interfaces §3). */
public sealed interface Trigger {
    String graph();

    /** {@code {"graph":…,"partitions":[…]}}: starts each listed partition. */
    record Start(String graph, List<Partition> partitions) implements Trigger {
        public Start {
            partitions = List.copyOf(partitions);
        }
    }

    /** {@code {"graph":…,"time":"2026-09-15T02:00:00Z"}}: starts the partition containing the time. */
    record AtTime(String graph, long timeMs) implements Trigger {}

    /** A cron firing: empty value, the graph and the previous occurrence in headers (spec §4.6). */
    record CronFiring(String graph, Optional<Long> fireMs, Optional<Long> previousFireMs) implements Trigger {}
}
