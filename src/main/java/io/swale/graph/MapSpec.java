package io.swale.graph;

import java.util.List;
import java.util.Objects;

/**
 * What makes a node mapped: one task instance per item of an upstream's array output.
 *
 * @param source the {@code map} text as written, for messages
 * @param upstream the upstream node whose output holds the array
 * @param path the dotted path inside that output (empty for the whole output)
 * @param maxMap the most items the array may have; more fails the node
 * @param maxParallel the most items active at once
 */
public record MapSpec(String source, String upstream, List<String> path, int maxMap, int maxParallel) {
    public static final int DEFAULT_MAX_MAP = 1024;
    /** The highest {@code max_map} a definition may ask for: each item costs an instance, an input and a record. */
    public static final int MOST_MAX_MAP = 65_536;

    public MapSpec {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(upstream, "upstream");
        path = List.copyOf(path);
    }

    /** The item's name as node, record field and run-id part: {@code node[index]}. */
    public static String itemName(String node, long index) {
        return node + "[" + index + "]";
    }
}
