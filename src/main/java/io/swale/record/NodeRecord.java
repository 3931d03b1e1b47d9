package io.swale.record;

import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What a terminated task instance left for its node: written once per (node, rerun).
 *
 * @param output the output of a succeeded instance (absent when none, null, or omitted for size)
 * @param outputOmitted true when the output was dropped because the record would exceed 256 KiB
 */
public record NodeRecord(
        NodeStatus status,
        String runId,
        String definition,
        long rerun,
        long terminatedAtMs,
        Optional<JsonNode> output,
        boolean outputOmitted,
        Optional<String> error) {

    public NodeRecord {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(error, "error");
        output = output.filter(o -> !o.isNull());
    }

    public boolean succeeded() {
        return status == NodeStatus.SUCCEEDED;
    }
}
