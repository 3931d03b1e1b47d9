package io.swale.definition;

import io.swale.graph.Node;
import io.swale.graph.Partitioning;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A definition of the right shape, before any fault check: names, assets and durations still as written.
 *
 * @param catchup the catch-up text, parsed by the file checks
 * @param maps the {@code map} keys as written, by the position of their node in {@code nodes}
 */
record RawDefinition(
        String name, Optional<String> schedule, Optional<String> catchup, Partitioning partitioning, List<Node> nodes,
        Map<Integer, RawMap> maps) {

    RawDefinition {
        nodes = List.copyOf(nodes);
        maps = Map.copyOf(maps);
    }

    RawDefinition(String name, Optional<String> schedule, Optional<String> catchup, Partitioning partitioning,
            List<Node> nodes) {
        this(name, schedule, catchup, partitioning, nodes, Map.of());
    }

    /**
     * A node's mapping keys as written, checked by {@link MapChecks}.
     *
     * @param source the {@code map} text, absent when only the limits were given (a fault)
     */
    record RawMap(Optional<String> source, Optional<Long> maxMap, Optional<Long> maxParallel) {}

    /** Asset → the names of the nodes producing it, in file order (a repeated node name repeats). */
    Map<String, List<String>> producers() {
        Map<String, List<String>> producers = new LinkedHashMap<>();
        for (Node n : nodes) {
            n.produces().ifPresent(a -> producers.computeIfAbsent(a, k -> new ArrayList<>()).add(n.name()));
        }
        return producers;
    }

    Set<String> nodeNames() {
        Set<String> names = new LinkedHashSet<>();
        nodes.forEach(n -> names.add(n.name()));
        return names;
    }

    /** The nodes {@code node} depends on, as far as they exist: producers of its assets, or its {@code after} names. */
    Set<String> upstreamsOf(Node node, Map<String, List<String>> producers, Set<String> nodeNames) {
        Set<String> upstreams = new LinkedHashSet<>();
        if (node.isAsset()) {
            node.consumes().forEach(a -> upstreams.addAll(producers.getOrDefault(a, List.of())));
        } else {
            node.after().stream().filter(nodeNames::contains).forEach(upstreams::add);
        }
        return upstreams;
    }
}
