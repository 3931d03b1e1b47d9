package io.swale.definition;

import io.swale.graph.Graph;
import java.util.Objects;

/**
 * A checked definition.
 *
 * @param hash SHA-256 of the exact bytes loaded (§1.8)
 * @param text the text as loaded
 */
public record Definition(String hash, String text, Graph graph) {
    public Definition {
        Objects.requireNonNull(hash, "hash");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(graph, "graph");
    }
}
