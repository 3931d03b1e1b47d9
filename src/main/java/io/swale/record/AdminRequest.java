package io.swale.record;

import io.swale.graph.Partition;
import java.util.List;

/** The logical form of an admin request (spec §5.5). */
public sealed interface AdminRequest {
    String graph();

    record Start(String graph, List<Partition> partitions) implements AdminRequest {
        public Start {
            partitions = List.copyOf(partitions);
        }
    }

    record Rerun(String graph, Partition partition, String node) implements AdminRequest {}

    record Cancel(String graph, Partition partition) implements AdminRequest {}
}
