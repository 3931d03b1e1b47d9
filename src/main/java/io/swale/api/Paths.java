package io.swale.api;

import io.swale.graph.Partition;
import java.util.regex.Pattern;

/** Validation of path parameters, each error naming its field. */
final class Paths {
    private static final Pattern NAME = Pattern.compile("[a-z0-9_]+");

    private Paths() {}

    static String name(String field, String value) {
        if (value == null || !NAME.matcher(value).matches()) {
            throw new ApiErrors.BadRequest(field, "`" + value + "` is not a valid " + field + " name: it matches [a-z0-9_]+");
        }
        return value;
    }

    static Partition partition(String value) {
        if (!Partition.isValid(value)) {
            throw new ApiErrors.BadRequest("partition", "invalid partition key `" + value
                    + "`: a partition key is 1 to 16 characters of [A-Za-z0-9_]");
        }
        return Partition.of(value);
    }
}
