package io.swale.definition;

import java.util.Objects;
import java.util.Optional;

/**
 * One thing wrong with a definition.
 *
 * @param node the node the fault is about, when it is about a single node
 */
public record Fault(FaultKind kind, Optional<String> node, String message) {
    public Fault {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(message, "message");
    }

    static Fault ofGraph(FaultKind kind, String message) {
        return new Fault(kind, Optional.empty(), message);
    }

    static Fault ofNode(FaultKind kind, String node, String message) {
        return new Fault(kind, Optional.of(node), message);
    }

    /** The one line reporting this fault, e.g. {@code NoNodes: the graph has no nodes}. */
    public String line() {
        return kind.wireName() + ": " + message;
    }
}
