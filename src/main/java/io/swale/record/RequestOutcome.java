package io.swale.record;

import io.swale.graph.Partition;
import java.util.List;

/** What handling a request did, as its record keeps it (spec §5.5). */
public sealed interface RequestOutcome {
    record Started(List<Partition> partitions) implements RequestOutcome {
        public Started {
            partitions = List.copyOf(partitions);
        }
    }

    record Rerun(String runId) implements RequestOutcome {}

    record Cancelled() implements RequestOutcome {}

    record Refused(String reason) implements RequestOutcome {}
}
