package io.swale.store;

import io.swale.graph.Partition;
import java.util.Objects;
import java.util.Optional;

/** The identity of one graph run: graph × partition. */
public record RunKey(String graph, Partition partition) implements Comparable<RunKey> {
    public RunKey {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(partition, "partition");
    }

    /** {@code graph/partition}: the Kafka key of its events and the Redis hash tag of its keys. */
    public String id() {
        return graph + "/" + partition.key();
    }

    /** Parses {@link #id()}; empty when the text is not a run identity. */
    public static Optional<RunKey> parse(String id) {
        int slash = id.indexOf('/');
        if (slash <= 0 || !Partition.isValid(id.substring(slash + 1))) {
            return Optional.empty();
        }
        return Optional.of(new RunKey(id.substring(0, slash), Partition.of(id.substring(slash + 1))));
    }

    /** {@code {graph}-{partition}-{node}-r{rerun}}. */
    public String runId(String node, long rerun) {
        return graph + "-" + partition.key() + "-" + node + "-r" + rerun;
    }

    @Override
    public int compareTo(RunKey o) {
        int c = graph.compareTo(o.graph);
        return c != 0 ? c : partition.compareTo(o.partition);
    }

    @Override
    public String toString() {
        return id();
    }
}
