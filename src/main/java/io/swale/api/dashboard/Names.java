package io.swale.api.dashboard;

import io.swale.api.ApiErrors;
import io.swale.graph.Partition;
import java.util.Optional;
import java.util.regex.Pattern;

/** Validation of the dashboard's path and query parameters, each error naming its field. */
final class Names {
    private static final Pattern NAME = Pattern.compile("[a-z0-9_]+");

    private Names() {}

    static String graph(String graph) {
        if (graph == null || !NAME.matcher(graph).matches()) {
            throw new ApiErrors.BadRequest("graph", "`" + graph + "` is not a valid graph name: it matches [a-z0-9_]+");
        }
        return graph;
    }

    static Partition partition(String value) {
        return partition("partition", value);
    }

    static Partition partition(String field, String value) {
        if (!Partition.isValid(value)) {
            throw new ApiErrors.BadRequest(field, "invalid partition key `" + value
                    + "`: a partition key is 1 to 16 characters of [A-Za-z0-9_]");
        }
        return Partition.of(value);
    }

    static Optional<String> partitionBound(String field, Optional<String> value) {
        return value.filter(v -> !v.isEmpty()).map(v -> partition(field, v).key());
    }
}
