package io.swale.definition;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * The first value of a document tree, in document order, that a check picks out, with the way to it. Walked without
 * recursion, and the path is spelled only for the value found: the depth limit is checked on the tree after the
 * parse and the shape, and TOML's dotted keys nest thousands deep.
 */
final class TreeSearch {
    /** A value found, and its path from the root searched: {@code .a.b[2]}, empty for the root itself. */
    record Found(JsonNode value, String path) {}

    private TreeSearch() {
    }

    static Optional<Found> first(JsonNode root, Predicate<JsonNode> wanted) {
        ArrayDeque<At> open = new ArrayDeque<>();
        open.push(new At(root, null, ""));
        while (!open.isEmpty()) {
            At at = open.pop();
            JsonNode v = at.value();
            if (wanted.test(v)) {
                return Optional.of(new Found(v, at.path()));
            }
            List<At> children = new ArrayList<>();
            if (v.isObject()) {
                v.properties().forEach(e -> children.add(new At(e.getValue(), at, "." + e.getKey())));
            } else if (v.isArray()) {
                for (int i = 0; i < v.size(); i++) {
                    children.add(new At(v.get(i), at, "[" + i + "]"));
                }
            }
            // pushed last to first, so that the first in the document is popped first
            for (int i = children.size() - 1; i >= 0; i--) {
                open.push(children.get(i));
            }
        }
        return Optional.empty();
    }

    /** A value of the walk, with the step that led to it from its parent. */
    private record At(JsonNode value, At parent, String step) {
        String path() {
            ArrayDeque<String> steps = new ArrayDeque<>();
            for (At a = this; a != null; a = a.parent()) {
                steps.push(a.step());
            }
            return String.join("", steps);
        }
    }
}
