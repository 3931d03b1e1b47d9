package io.swale.template;

import java.util.Objects;

/**
 * A template fault found in params before rendering.
 *
 * @param path the parameter path, keys and indexes joined with {@code .} (e.g. {@code nested.list.1})
 */
public record TemplateProblem(Kind kind, String path, String message) {

    public enum Kind {
        /** The string is not a valid template. */
        INVALID_TEMPLATE,
        /** The template names an {@code upstream.<n>} that is not an upstream of the node. */
        UNKNOWN_UPSTREAM,
        /** {@code item} or {@code map.index} in a node without {@code map}. */
        ITEM_OUTSIDE_MAP
    }

    public TemplateProblem {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }
}
