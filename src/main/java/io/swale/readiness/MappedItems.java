package io.swale.readiness;

import io.swale.graph.ItemName;
import io.swale.graph.MapSpec;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The pure rules of a mapped node (docs/dynamic-graphs.md §4–6): which item records count, at which rerun an
 * item is submitted, and the node record derived from its items. Pure functions.
 */
public final class MappedItems {
    private MappedItems() {}

    /** What the map source holds: the items, or why the node fails. */
    public sealed interface Source {
        record Items(List<JsonNode> items) implements Source {
            public Items {
                items = List.copyOf(items);
            }
        }

        record Invalid(String error) implements Source {}
    }

    /** The array the node maps over, read from its upstream's current record. */
    public static Source source(String node, MapSpec spec, Optional<NodeRecord> upstream) {
        String ref = "`" + spec.source().strip() + "`";
        if (upstream.isEmpty() || !upstream.get().succeeded()) {
            return new Source.Invalid("node `" + node + "`: the map source " + ref + " has no succeeded record of `"
                    + spec.upstream() + "`");
        }
        if (upstream.get().outputOmitted()) {
            return new Source.Invalid("node `" + node + "`: the map source " + ref + " is not in the record of `"
                    + spec.upstream() + "`: its output was omitted (over 262144 bytes, or lost with a record the "
                    + "reconciler wrote back)");
        }
        JsonNode value = upstream.get().output().orElse(JsonNodeFactory.instance.nullNode());
        for (String segment : spec.path()) {
            JsonNode next = value.isObject() ? value.get(segment)
                    : value.isArray() && segment.chars().allMatch(Character::isDigit) && segment.length() < 10
                            ? value.get(Integer.parseInt(segment)) : null;
            if (next == null) {
                return new Source.Invalid("node `" + node + "`: the map source " + ref + " is missing (path `"
                        + String.join(".", spec.path()) + "` of `" + spec.upstream() + "`); it must hold a JSON array");
            }
            value = next;
        }
        if (!value.isArray()) {
            return new Source.Invalid("node `" + node + "`: the map source " + ref + " must hold a JSON array, found "
                    + typeOf(value));
        }
        if (value.size() > spec.maxMap()) {
            return new Source.Invalid("node `" + node + "`: the map source " + ref + " holds " + value.size()
                    + " items, more than max_map " + spec.maxMap());
        }
        return new Source.Items(value.valueStream().toList());
    }

    /** The generation floor: items below it belong to an earlier generation of the node. */
    public static long floor(GraphRunRecord run, String node) {
        return run.expectedReruns().getOrDefault(ItemName.floorKey(node), 0L);
    }

    /** Whether an item's record counts for the node's current generation. */
    public static boolean isCurrent(GraphRunRecord run, String node, int index, NodeRecord record) {
        long own = run.expectedReruns().getOrDefault(MapSpec.itemName(node, index), 0L);
        return record.rerun() >= Math.max(floor(run, node), own);
    }

    /** The rerun an item without a current record is submitted at. */
    public static long nextRerun(GraphRunRecord run, String node, int index, Optional<NodeRecord> record) {
        long own = run.expectedReruns().getOrDefault(MapSpec.itemName(node, index), 0L);
        return Math.max(Math.max(floor(run, node), own), record.map(r -> r.rerun() + 1).orElse(0L));
    }

    /** The rerun of the derived record: G + Σ(r_k − G), never below the node's own expectation. */
    public static long derivedRerun(GraphRunRecord run, String node, List<NodeRecord> items) {
        long g = floor(run, node);
        long sum = g;
        for (NodeRecord r : items) {
            sum += r.rerun() - g;
        }
        return Math.max(sum, run.expectedRerun(node));
    }

    /**
     * The node's record from its items' current records, all terminal: succeeded when every item succeeded
     * (output = their outputs in index order), cancelled when none failed and one was cancelled, else failed.
     */
    public static NodeRecord derive(GraphRunRecord run, String node, String runId, List<NodeRecord> items) {
        long terminated = items.stream().mapToLong(NodeRecord::terminatedAtMs).max().orElse(0);
        long failed = items.stream().filter(r -> r.status() == NodeStatus.FAILED).count();
        boolean cancelled = items.stream().anyMatch(r -> r.status() == NodeStatus.CANCELLED);
        long rerun = derivedRerun(run, node, items);
        if (failed > 0 || cancelled) {
            NodeStatus status = failed > 0 ? NodeStatus.FAILED : NodeStatus.CANCELLED;
            int first = 0;
            while (items.get(first).status() != status) {
                first++;
            }
            String error = (failed > 0 ? failed + " of " + items.size() + " items failed" : "an item was cancelled")
                    + "; first: [" + first + "] " + items.get(first).error().orElse("(no error text)");
            return new NodeRecord(status, runId + rerun, run.definition(), rerun, terminated, Optional.empty(), false,
                    Optional.of(error));
        }
        ArrayNode outputs = JsonNodeFactory.instance.arrayNode();
        items.forEach(r -> outputs.add(r.output().orElse(JsonNodeFactory.instance.nullNode())));
        return new NodeRecord(NodeStatus.SUCCEEDED, runId + rerun, run.definition(), rerun, terminated,
                Optional.of(outputs), false, Optional.empty());
    }

    /** The record of a node whose source is not a usable array: failed, permanently. */
    public static NodeRecord invalid(GraphRunRecord run, String node, String runIdPrefix, String error, long nowMs) {
        long rerun = Math.max(floor(run, node), run.expectedRerun(node));
        return new NodeRecord(NodeStatus.FAILED, runIdPrefix + rerun, run.definition(), rerun, nowMs, Optional.empty(),
                false, Optional.of(error));
    }

    /** The record of a node over an empty array: succeeded with {@code []}. */
    public static NodeRecord empty(GraphRunRecord run, String node, String runIdPrefix, long nowMs) {
        long rerun = Math.max(floor(run, node), run.expectedRerun(node));
        return new NodeRecord(NodeStatus.SUCCEEDED, runIdPrefix + rerun, run.definition(), rerun, nowMs,
                Optional.of(JsonNodeFactory.instance.arrayNode()), false, Optional.empty());
    }

    private static String typeOf(JsonNode v) {
        if (v.isObject()) {
            return "an object";
        }
        if (v.isString()) {
            return "a string";
        }
        if (v.isNumber()) {
            return "a number";
        }
        if (v.isBoolean()) {
            return "a boolean";
        }
        return v.isNull() ? "null" : v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    }
}
