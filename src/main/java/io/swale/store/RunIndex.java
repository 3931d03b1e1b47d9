package io.swale.store;

import io.swale.graph.Partition;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Read-only views of the run indexes for the dashboard: runs of a graph newest first, how many a graph
 * has, and which runs settled lately. Each answer is read from the indexes the store keeps anyway.
 */
public interface RunIndex {

    /** Partitions with a run, in descending partition order (newest first for time partitions). */
    List<Partition> partitionsNewestFirst(String graph, int offset, int limit);

    /**
     * Partitions with a run between {@code from} and {@code to} (both included, either open), in descending
     * partition order, skipping {@code offset}.
     */
    List<Partition> partitionsNewestFirst(String graph, Optional<String> from, Optional<String> to, int offset, int limit);

    /** How many runs a graph has between {@code from} and {@code to} (both included, either open). */
    long runCount(String graph, Optional<String> from, Optional<String> to);

    /** How many runs each graph has, read in one round trip; graphs without runs answer 0. */
    Map<String, Long> runCounts(Collection<String> graphs);

    /** Runs whose record was settled (or settled again after a rerun) at or after {@code sinceMs}, with that time. */
    Map<RunKey, Long> settledSince(long sinceMs);
}
