package io.swale.graph;

import java.util.Optional;

/**
 * An item of a mapped node named {@code node[index]}: node names never hold {@code [}, so the name alone
 * tells an item from a node.
 */
public record ItemName(String node, int index) {
    /** The name of the generation floor of a mapped node in a run's expected reruns. */
    public static String floorKey(String node) {
        return node + "[]";
    }

    /** The node a task instance's node name belongs to: an item's ({@code each[3]}) is its mapped node's. */
    public static String nodeOf(String name) {
        return parse(name).map(ItemName::node).orElse(name);
    }

    public String text() {
        return MapSpec.itemName(node, index);
    }

    /** Parses {@code node[index]}; empty for anything else (a plain node name, {@code node[]}, a bad index). */
    public static Optional<ItemName> parse(String name) {
        int open = name.indexOf('[');
        if (open <= 0 || !name.endsWith("]") || name.length() - open < 3) {
            return Optional.empty();
        }
        String digits = name.substring(open + 1, name.length() - 1);
        if (digits.length() > 9 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')
                || (digits.length() > 1 && digits.charAt(0) == '0')) {
            return Optional.empty();
        }
        return Optional.of(new ItemName(name.substring(0, open), Integer.parseInt(digits)));
    }
}
