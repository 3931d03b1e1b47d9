package io.swale.api.dashboard;

import io.swale.api.Paths;
import io.swale.graph.Partition;
import java.util.Optional;

/** Validation of the dashboard's path and query parameters, each error naming its field (as the admin API's). */
final class Names {
    private Names() {}

    static String graph(String graph) {
        return Paths.name("graph", graph);
    }

    static Partition partition(String value) {
        return Paths.partition(value);
    }

    static Optional<String> partitionBound(String field, Optional<String> value) {
        return value.filter(v -> !v.isEmpty()).map(v -> Paths.partition(field, v).key());
    }
}
