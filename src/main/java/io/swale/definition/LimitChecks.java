package io.swale.definition;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The size faults, found before any check that recurses: a tree walked with its own stack, so a document
 * thousands of tables deep is a fault rather than a StackOverflowError.
 */
final class LimitChecks {
    private LimitChecks() {}

    private record At(JsonNode node, int depth, String path) {}

    /** At most one fault per limit, naming the first place it is exceeded. */
    static List<Fault> check(JsonNode root, DefinitionLimits limits) {
        Optional<Fault> deep = Optional.empty();
        Optional<Fault> longString = Optional.empty();
        Optional<Fault> longKey = Optional.empty();
        Deque<At> todo = new ArrayDeque<>();
        todo.push(new At(root, 1, "the document"));
        while (!todo.isEmpty()) {
            At at = todo.pop();
            JsonNode n = at.node();
            if (n.isString() && n.asString().length() > limits.maxStringLength() && longString.isEmpty()) {
                longString = Optional.of(Fault.ofGraph(FaultKind.STRING_TOO_LONG, "a string at " + at.path() + " has "
                        + n.asString().length() + " characters, more than " + limits.maxStringLength()
                        + " (swale.limits.string-length)"));
            }
            if (!n.isContainer()) {
                continue;
            }
            if (at.depth() > limits.maxDepth()) {
                if (deep.isEmpty()) {
                    deep = Optional.of(Fault.ofGraph(FaultKind.TOO_DEEP, at.path() + " is nested " + at.depth()
                            + " levels deep, more than " + limits.maxDepth() + " (swale.limits.depth)"));
                }
                continue; // nothing below is walked: the depth is already refused
            }
            if (n.isObject()) {
                for (Map.Entry<String, JsonNode> e : n.properties()) {
                    if (e.getKey().length() > limits.maxKeyLength() && longKey.isEmpty()) {
                        longKey = Optional.of(Fault.ofGraph(FaultKind.KEY_TOO_LONG, "a key at " + at.path() + " has "
                                + e.getKey().length() + " characters, more than " + limits.maxKeyLength()
                                + " (swale.limits.key-length)"));
                    }
                    todo.push(new At(e.getValue(), at.depth() + 1, child(at, shortKey(e.getKey()))));
                }
            } else {
                for (int i = 0; i < n.size(); i++) {
                    todo.push(new At(n.get(i), at.depth() + 1, child(at, Integer.toString(i))));
                }
            }
        }
        return java.util.stream.Stream.of(deep, longString, longKey).flatMap(Optional::stream).toList();
    }

    /** Node count, checked on the shape read: each node costs checks, topics and keys. */
    static Optional<Fault> nodeCount(RawDefinition d, DefinitionLimits limits) {
        if (d.nodes().size() <= limits.maxNodes()) {
            return Optional.empty();
        }
        return Optional.of(Fault.ofGraph(FaultKind.TOO_MANY_NODES, "the graph has " + d.nodes().size()
                + " nodes, more than " + limits.maxNodes() + " (swale.limits.nodes)"));
    }

    /** A pool names two Kafka topics, {@code <prefix>pool.<pool>} and its {@code .DLT}: it must be a legal part of both. */
    static List<Fault> poolNames(RawDefinition d, DefinitionLimits limits) {
        List<Fault> faults = new java.util.ArrayList<>();
        for (io.swale.graph.Node n : d.nodes()) {
            String pool = n.pool();
            if (pool.isEmpty() || !TOPIC_CHARS.matcher(pool).matches()) {
                faults.add(Fault.ofNode(FaultKind.INVALID_POOL_NAME, n.name(), "node `" + n.name()
                        + "`: pool `" + shortKey(pool) + "` must be non-empty and use only a-z, A-Z, 0-9, `.`, `_` and `-`"
                        + " (it names a Kafka topic)"));
            } else if (pool.length() > limits.maxPoolNameLength()) {
                faults.add(Fault.ofNode(FaultKind.INVALID_POOL_NAME, n.name(), "node `" + n.name() + "`: pool `"
                        + shortKey(pool) + "` has " + pool.length() + " characters, more than the "
                        + limits.maxPoolNameLength() + " a Kafka topic name leaves it after `<swale.kafka.topic-prefix>pool.` and `.DLT`"));
            }
        }
        return faults;
    }

    private static final java.util.regex.Pattern TOPIC_CHARS = java.util.regex.Pattern.compile("[a-zA-Z0-9._-]+");

    // paths stay short: a message must not grow with the depth it reports
    private static String child(At parent, String key) {
        String base = parent.depth() == 1 ? "" : parent.path() + ".";
        if (parent.depth() > 8) {
            return parent.path().endsWith("…") ? parent.path() : parent.path() + ".…";
        }
        return base + key;
    }

    private static String shortKey(String key) {
        return key.length() > 40 ? key.substring(0, 40) + "…" : key;
    }
}
