package io.swale.graph;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A checked graph: nodes in definition order, edges derived from assets and {@code after} names.
 * Built only from a definition without faults, so every asset consumed has exactly one producer.
 */
public final class Graph {
    private final String name;
    private final Optional<String> schedule;
    private final Optional<Duration> catchup;
    private final Partitioning partitioning;
    private final List<Node> nodes;
    private final Map<String, Node> byName;
    private final Map<String, SortedSet<String>> upstreams;
    private final Map<String, SortedSet<String>> downstreams;
    private final Map<String, String> grownBy;
    private final Map<String, SortedSet<String>> extraUpstreams;
    private final Map<String, SortedSet<String>> missingUpstreams;
    // readiness walks it on every event of a run: computed once per graph
    private final List<String> topologicalOrder;

    public Graph(String name, Optional<String> schedule, Optional<Duration> catchup, Partitioning partitioning,
            List<Node> nodes) {
        this(name, schedule, catchup, partitioning, nodes, Map.of(), Map.of());
    }

    private Graph(String name, Optional<String> schedule, Optional<Duration> catchup, Partitioning partitioning,
            List<Node> nodes, Map<String, String> grownBy, Map<String, SortedSet<String>> extraUpstreams) {
        this.grownBy = Map.copyOf(grownBy);
        this.extraUpstreams = Map.copyOf(extraUpstreams);
        this.name = name;
        this.schedule = schedule;
        this.catchup = catchup;
        this.partitioning = partitioning;
        this.nodes = List.copyOf(nodes);
        Map<String, Node> names = new LinkedHashMap<>();
        Map<String, String> producers = new LinkedHashMap<>();
        for (Node n : this.nodes) {
            names.putIfAbsent(n.name(), n);
            n.produces().ifPresent(a -> producers.putIfAbsent(a, n.name()));
        }
        this.byName = Collections.unmodifiableMap(names);
        Map<String, SortedSet<String>> up = new LinkedHashMap<>();
        Map<String, SortedSet<String>> down = new LinkedHashMap<>();
        Map<String, SortedSet<String>> missing = new LinkedHashMap<>();
        for (Node n : this.nodes) {
            up.put(n.name(), new TreeSet<>());
            down.put(n.name(), new TreeSet<>());
        }
        for (Node n : this.nodes) {
            List<String> sources = new ArrayList<>();
            if (n.isAsset()) {
                for (String asset : n.consumes()) {
                    String producer = producers.get(asset);
                    if (producer != null) {
                        sources.add(producer);
                    }
                }
            } else {
                sources.addAll(n.after());
            }
            sources.addAll(this.extraUpstreams.getOrDefault(n.name(), Collections.emptySortedSet()));
            for (String s : sources) {
                if (names.containsKey(s)) {
                    up.get(n.name()).add(s);
                    down.get(s).add(n.name());
                } else if (!n.isAsset()) {
                    missing.computeIfAbsent(n.name(), k -> new TreeSet<>()).add(s);
                }
            }
        }
        missing.replaceAll((k, v) -> Collections.unmodifiableSortedSet(v));
        this.missingUpstreams = Collections.unmodifiableMap(missing);
        up.replaceAll((k, v) -> Collections.unmodifiableSortedSet(v));
        down.replaceAll((k, v) -> Collections.unmodifiableSortedSet(v));
        this.upstreams = Collections.unmodifiableMap(up);
        this.downstreams = Collections.unmodifiableMap(down);
        this.topologicalOrder = kahnOrder();
    }

    /**
     * Kahn's order in O(nodes + edges): roots in definition order, then each node as soon as its last upstream
     * is placed. A checked graph is acyclic; any node left on a cycle is left out.
     */
    private List<String> kahnOrder() {
        Map<String, Integer> pending = new HashMap<>();
        Deque<String> ready = new ArrayDeque<>();
        for (Node n : nodes) {
            int ups = upstreams(n.name()).size();
            pending.put(n.name(), ups);
            if (ups == 0) {
                ready.add(n.name());
            }
        }
        List<String> order = new ArrayList<>(pending.size());
        while (!ready.isEmpty()) {
            String next = ready.poll();
            order.add(next);
            for (String d : downstreams(next)) {
                if (pending.merge(d, -1, Integer::sum) == 0) {
                    ready.add(d);
                }
            }
        }
        return List.copyOf(order);
    }

    /** Every node with its upstreams before it (see {@link #kahnOrder}). */
    public List<String> topologicalOrder() {
        return topologicalOrder;
    }

    /**
     * This graph with a declared growth attached (docs/dynamic-graphs.md §8): {@code grown} are appended (their
     * {@code after} already resolved), and each of {@code waiting} gets every grown leaf as an extra upstream.
     * Names already in the graph are not added again: the caller checked them.
     */
    public Graph grow(String by, List<Node> grown, java.util.Collection<String> waiting) {
        List<Node> all = new ArrayList<>(nodes);
        Map<String, String> by2 = new LinkedHashMap<>(grownBy);
        java.util.Set<String> grownNames = new java.util.HashSet<>();
        for (Node n : grown) {
            if (!byName.containsKey(n.name()) && grownNames.add(n.name())) {
                all.add(n);
                by2.put(n.name(), by);
            }
        }
        java.util.Set<String> inner = new java.util.HashSet<>();
        for (Node n : grown) {
            if (grownNames.contains(n.name())) {
                n.after().stream().filter(grownNames::contains).forEach(inner::add);
            }
        }
        List<String> leaves = grown.stream().map(Node::name).filter(grownNames::contains)
                .filter(n -> !inner.contains(n)).distinct().toList();
        Map<String, SortedSet<String>> extra = new LinkedHashMap<>();
        extraUpstreams.forEach((k, v) -> extra.put(k, new TreeSet<>(v)));
        for (String w : waiting) {
            if (byName.containsKey(w)) {
                extra.computeIfAbsent(w, k -> new TreeSet<>()).addAll(leaves);
            }
        }
        return new Graph(name, schedule, catchup, partitioning, all, by2, extra);
    }

    /**
     * The {@code after} names of {@code nodeName} that name no node of this graph. A checked definition has none;
     * a grown node has one when it runs after another growth's node and a rerun took that growth out. Such a node
     * must not run until the name is back (docs/dynamic-graphs.md §8.5).
     */
    public SortedSet<String> missingUpstreams(String nodeName) {
        return missingUpstreams.getOrDefault(nodeName, Collections.emptySortedSet());
    }

    /** The node whose output grew {@code nodeName} into this run's graph; empty for a node of the definition. */
    public Optional<String> grownBy(String nodeName) {
        return Optional.ofNullable(grownBy.get(nodeName));
    }

    /** The nodes {@code declaring}'s output grew into this run's graph, in name order. */
    public List<String> grownNodesOf(String declaring) {
        return grownBy.entrySet().stream().filter(e -> e.getValue().equals(declaring)).map(Map.Entry::getKey)
                .sorted().toList();
    }

    /** How many growths deep {@code nodeName} is: 0 for a node of the definition. */
    public int growthDepth(String nodeName) {
        int depth = 0;
        String at = grownBy.get(nodeName);
        while (at != null && depth <= grownBy.size()) {
            depth++;
            at = grownBy.get(at);
        }
        return depth;
    }

    public String name() {
        return name;
    }

    public Optional<String> schedule() {
        return schedule;
    }

    public Optional<Duration> catchup() {
        return catchup;
    }

    public Partitioning partitioning() {
        return partitioning;
    }

    /** Nodes in definition order. */
    public List<Node> nodes() {
        return nodes;
    }

    public Optional<Node> node(String nodeName) {
        return Optional.ofNullable(byName.get(nodeName));
    }

    public boolean hasNode(String nodeName) {
        return byName.containsKey(nodeName);
    }

    /** Upstream names in lexical order. */
    public SortedSet<String> upstreams(String nodeName) {
        return upstreams.getOrDefault(nodeName, Collections.emptySortedSet());
    }

    /** Downstream names in lexical order. */
    public SortedSet<String> downstreams(String nodeName) {
        return downstreams.getOrDefault(nodeName, Collections.emptySortedSet());
    }

    /** Nodes without upstreams, in definition order. */
    public List<Node> roots() {
        return nodes.stream().filter(n -> upstreams(n.name()).isEmpty()).toList();
    }

    /** Nodes without downstreams, in definition order. */
    public List<Node> leaves() {
        return nodes.stream().filter(n -> downstreams(n.name()).isEmpty()).toList();
    }

    public int edgeCount() {
        return upstreams.values().stream().mapToInt(SortedSet::size).sum();
    }

    public TriggerRule triggerRule(String nodeName) {
        return node(nodeName).map(Node::triggerRule).orElse(TriggerRule.ALL_SUCCEEDED);
    }

    /** Distinct pools named by the nodes, in definition order. */
    public List<String> pools() {
        return nodes.stream().map(Node::pool).distinct().toList();
    }
}
