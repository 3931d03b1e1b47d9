package io.swale.api;

import io.swale.graph.Partition;
import io.swale.request.RequestId;
import java.util.Optional;
import java.util.regex.Pattern;

/** Validation of path, query and header parameters, each error naming its field. */
public final class Paths {
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final Pattern NAME = Pattern.compile("[a-z0-9_]+");
    private static final Pattern CHANNEL = Pattern.compile("events|triggers|pool\\.[a-z0-9_]+");

    private Paths() {}

    public static String name(String field, String value) {
        if (value == null || !NAME.matcher(value).matches()) {
            throw new ApiErrors.BadRequest(field, "`" + value + "` is not a valid " + field + " name: it matches [a-z0-9_]+");
        }
        return value;
    }

    /** A node name, or an item of a mapped node: {@code node[index]}. */
    public static String nodeOrItem(String value) {
        if (value != null && io.swale.graph.ItemName.parse(value).filter(i -> NAME.matcher(i.node()).matches()).isPresent()) {
            return value;
        }
        if (value == null || !NAME.matcher(value).matches()) {
            throw new ApiErrors.BadRequest("node", "`" + value + "` is not a valid node name: it matches [a-z0-9_]+,"
                    + " or node[index] for one item of a mapped node");
        }
        return value;
    }

    public static Partition partition(String value) {
        return partition("partition", value);
    }

    public static Partition partition(String field, String value) {
        if (!Partition.isValid(value)) {
            throw new ApiErrors.BadRequest(field, "invalid partition key `" + value
                    + "`: a partition key is 1 to 16 characters of [A-Za-z0-9_]");
        }
        return Partition.of(value);
    }

    static int limit(int value, int max) {
        if (value < 1 || value > max) {
            throw new ApiErrors.BadRequest("limit", "limit must be between 1 and " + max + ", got " + value);
        }
        return value;
    }

    /** A dead-letter channel: {@code events}, {@code triggers} or {@code pool.<name>}. */
    static String channel(String value) {
        if (value == null || !CHANNEL.matcher(value).matches()) {
            throw new ApiErrors.BadRequest("channel", "`" + value
                    + "` is not a channel: one of events, triggers, pool.<pool>");
        }
        return value;
    }

    static RequestId requestId(String field, String value) {
        if (!RequestId.isValid(value)) {
            throw new ApiErrors.BadRequest(field, new RequestId.InvalidRequestIdException(value).getMessage());
        }
        return new RequestId(value);
    }

    /** The Idempotency-Key header, when the client sent one. */
    static Optional<RequestId> idempotencyKey(String header) {
        return header == null ? Optional.empty() : Optional.of(requestId(IDEMPOTENCY_KEY, header));
    }
}
