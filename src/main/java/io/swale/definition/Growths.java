package io.swale.definition;

import io.swale.graph.Graph;
import io.swale.graph.MapSpec;
import io.swale.graph.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Declared growth (docs/dynamic-graphs.md §8): an operator's output {@code swale.grow} checked against the run's
 * effective graph like a definition, every fault at once, and a stored growth attached to a graph.
 */
public final class Growths {
    /** The deepest nesting of growths: a grown node may declare a growth, up to this many levels (§8.6). */
    public static final int MAX_DEPTH = 8;

    private static final Set<String> GROW_KEYS = Set.of("node", "edges_to");

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private Growths() {}

    /** The outcome of checking a growth. */
    public sealed interface Check {
        /**
         * A growth without faults.
         *
         * @param stored the growth as it is stored (the tables as given, the declaring record's rerun and the
         *     resolved {@code edges_to}), the text {@link #attach} reads back
         * @param graph the effective graph with the growth attached
         */
        record Valid(String stored, Graph graph) implements Check {}

        /** Every fault of the growth; nothing of it may be stored. */
        record Invalid(List<Fault> faults) implements Check {
            public Invalid {
                faults = List.copyOf(faults);
            }

            /** One line per fault, as a failed node's error. */
            public String error() {
                return String.join("\n", faults.stream().map(Fault::line).toList());
            }
        }
    }

    /** The {@code swale.grow} value of an output, when it has one. */
    public static Optional<JsonNode> declared(JsonNode output) {
        if (output == null || !output.isObject()) {
            return Optional.empty();
        }
        JsonNode swale = output.get("swale");
        if (swale == null || !swale.isObject()) {
            return Optional.empty();
        }
        return Optional.ofNullable(swale.get("grow"));
    }

    /**
     * Checks the growth {@code grow} that node {@code by} declared against {@code current}, the run's effective
     * graph without {@code by}'s own earlier growth; with {@code declaredResources} (strict resource mode), a grown
     * node's undeclared literal lease is a fault too.
     */
    public static Check check(Graph current, String by, long rerun, JsonNode grow, OperatorCatalog operators,
            DefinitionLimits limits, Optional<java.util.function.Predicate<String>> declaredResources) {
        Objects.requireNonNull(grow, "grow");
        List<Fault> faults = new ArrayList<>();
        String who = "the growth of `" + by + "`";
        if (!grow.isObject()) {
            return invalid(who + ": `swale.grow` must be a table with `node` and `edges_to`, found "
                    + ShapeReader.describe(grow));
        }
        for (Map.Entry<String, JsonNode> e : grow.properties()) {
            if (!GROW_KEYS.contains(e.getKey())) {
                faults.add(growth(who + ": unknown key `" + e.getKey() + "`; allowed keys are edges_to, node"));
            }
        }
        int depth = current.growthDepth(by) + 1;
        if (depth > MAX_DEPTH) {
            faults.add(growth(who + " would be nested " + depth + " growths deep, more than " + MAX_DEPTH));
        }
        faults.addAll(LimitChecks.check(grow, limits));
        JsonNode tables = grow.get("node");
        if (tables == null || !tables.isArray()) {
            faults.add(growth(who + ": `node` must be an array of node tables, found "
                    + (tables == null ? "nothing" : ShapeReader.describe(tables))));
            return new Check.Invalid(faults);
        }
        // the shape of each table, as a definition's: a wrong shape stops at its first problem (§1.6)
        List<Node> grown = new ArrayList<>();
        Map<Integer, RawDefinition.RawMap> maps = new HashMap<>();
        List<Node> existing = current.nodes();
        for (int i = 0; i < tables.size(); i++) {
            ShapeReader.GrownTable t;
            try {
                t = ShapeReader.readGrown(tables.get(i), i);
            } catch (DefinitionParseException e) {
                faults.add(growth(who + ": " + e.getMessage()));
                continue;
            }
            Node n = t.node();
            if (n.produces().isPresent() || !n.consumes().isEmpty()) {
                faults.add(Fault.ofNode(FaultKind.INVALID_GROWTH, n.name(), "grown node `" + n.name()
                        + "`: `produces` and `consumes` are not allowed; grown nodes are task nodes"));
            }
            grown.add(resolved(n, by));
            int position = existing.size() + grown.size() - 1;
            t.map().ifPresent(m -> maps.put(position, m));
        }
        List<String> waiting = edgesTo(current, by, grow.get("edges_to"), who, faults);
        Set<String> grownNames = new LinkedHashSet<>();
        grown.forEach(n -> grownNames.add(n.name()));
        for (String name : grownNames) {
            current.node(name).ifPresent(n -> faults.add(Fault.ofNode(FaultKind.DUPLICATE_NODE, name, "grown node `"
                    + name + "` (grown by `" + by + "`) collides with node `" + name + "` of the run ("
                    + current.grownBy(name).map(b -> "grown by `" + b + "`").orElse("in the definition") + ")")));
        }
        List<Node> all = new ArrayList<>(existing);
        all.addAll(grown);
        RawDefinition raw = new RawDefinition(current.name(), Optional.empty(), Optional.empty(),
                current.partitioning(), all, maps);
        List<Fault> checks = new ArrayList<>();
        LimitChecks.nodeCount(raw, limits).ifPresent(checks::add);
        checks.addAll(LimitChecks.poolNames(raw, limits));
        checks.addAll(GraphChecks.check(raw, expression -> Optional.empty()));
        List<Fault> leaseFaults = LeaseChecks.check(raw);
        checks.addAll(leaseFaults);
        // only the grown nodes: the run's own nodes passed at publish, under the capacities declared then
        declaredResources.ifPresent(declared -> checks.addAll(LeaseChecks.undeclared(grown, leaseFaults, declared)));
        checks.addAll(MapChecks.check(raw));
        checks.addAll(OperatorChecks.check(raw, operators));
        for (Fault f : checks) {
            boolean aboutGrowth = f.node().map(grownNames::contains).orElse(true);
            // a collision with a node of the run is reported above, naming both
            boolean collision = f.kind() == FaultKind.DUPLICATE_NODE && current.hasNode(f.node().orElse(""));
            if (aboutGrowth && !collision) {
                faults.add(f);
            }
        }
        if (!faults.isEmpty()) {
            return new Check.Invalid(faults);
        }
        List<Node> built = new ArrayList<>();
        for (int i = 0; i < grown.size(); i++) {
            Node n = grown.get(i);
            built.add(withMap(n, MapChecks.spec(raw, existing.size() + i)));
        }
        Graph grownGraph = current.grow(by, built, waiting);
        Optional<String> cycle = CycleCheck.find(grownGraph);
        if (cycle.isPresent()) {
            return new Check.Invalid(List.of(Fault.ofGraph(FaultKind.CYCLE, who + " would form a cycle: "
                    + cycle.get())));
        }
        return new Check.Valid(stored(by, rerun, tables, waiting), grownGraph);
    }

    /**
     * {@code graph} with the stored growth attached; unchanged when its declaring node is not in the graph (its
     * own grower's growth was replaced).
     */
    public static Graph attach(Graph graph, String stored) {
        Stored s = read(stored);
        if (!graph.hasNode(s.by())) {
            return graph;
        }
        List<Node> grown = new ArrayList<>();
        for (int i = 0; i < s.tables().size(); i++) {
            ShapeReader.GrownTable t = ShapeReader.readGrown(s.tables().get(i), i);
            Map<Integer, RawDefinition.RawMap> maps = new HashMap<>();
            t.map().ifPresent(m -> maps.put(0, m));
            RawDefinition one = new RawDefinition(graph.name(), Optional.empty(), Optional.empty(),
                    graph.partitioning(), List.of(t.node()), maps);
            grown.add(withMap(resolved(t.node(), s.by()), MapChecks.spec(one, 0)));
        }
        return graph.grow(s.by(), grown, s.edgesTo());
    }

    /**
     * A stored growth's parts.
     *
     * @param rerun the rerun of the declaring record it was stored with
     */
    public record Stored(String by, long rerun, JsonNode tables, List<String> edgesTo) {}

    /** Reads a stored growth; a text this class did not write throws. */
    public static Stored read(String stored) {
        JsonNode tree = JSON.readTree(stored);
        List<String> edges = new ArrayList<>();
        tree.get("edges_to").forEach(e -> edges.add(e.asString()));
        return new Stored(tree.get("by").asString(), tree.get("rerun").longValue(), tree.get("node"), edges);
    }

    private static String stored(String by, long rerun, JsonNode tables, List<String> edgesTo) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("by", by);
        o.put("rerun", rerun);
        o.set("node", tables);
        ArrayNode edges = o.putArray("edges_to");
        edgesTo.forEach(edges::add);
        return o.toString();
    }

    /** The downstreams that wait for the grown leaves: {@code edges_to}, or every downstream of {@code by}. */
    private static List<String> edgesTo(Graph current, String by, JsonNode edgesTo, String who, List<Fault> faults) {
        if (edgesTo == null) {
            return List.copyOf(current.downstreams(by));
        }
        if (!edgesTo.isArray()) {
            faults.add(growth(who + ": `edges_to` must be an array of node names, found "
                    + ShapeReader.describe(edgesTo)));
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (JsonNode e : edgesTo) {
            if (!e.isString()) {
                faults.add(growth(who + ": `edges_to` must hold node names, found " + ShapeReader.describe(e)));
            } else if (!current.downstreams(by).contains(e.asString())) {
                faults.add(growth(who + ": `edges_to` names `" + e.asString() + "`, which is not a downstream of `"
                        + by + "`" + (current.hasNode(e.asString()) ? "" : " (no node of the run has that name)")));
            } else {
                names.add(e.asString());
            }
        }
        return names;
    }

    /** A grown node without {@code after} runs after the declaring node. */
    private static Node resolved(Node n, String by) {
        if (!n.after().isEmpty()) {
            return n;
        }
        return new Node(n.name(), n.produces(), n.consumes(), List.of(by), n.declaredRule(), n.operator(), n.pool(),
                n.retries(), n.params(), n.map(), n.leases());
    }

    private static Node withMap(Node n, Optional<MapSpec> map) {
        return new Node(n.name(), n.produces(), n.consumes(), n.after(), n.declaredRule(), n.operator(), n.pool(),
                n.retries(), n.params(), map, n.leases());
    }

    private static Fault growth(String message) {
        return Fault.ofGraph(FaultKind.INVALID_GROWTH, message);
    }

    private static Check invalid(String message) {
        return new Check.Invalid(List.of(growth(message)));
    }
}
