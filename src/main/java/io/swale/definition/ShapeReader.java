package io.swale.definition;

import io.swale.graph.Node;
import io.swale.graph.Partitioning;
import io.swale.graph.TriggerRule;
import java.math.BigInteger;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.POJONode;

/**
 * Strict reading of the document tree (§1.1–1.3): an unknown key at any level, a missing required key,
 * a wrong type or a bad enum value stops loading with a {@link DefinitionParseException}.
 */
final class ShapeReader {
    private static final Set<String> TOP_KEYS = Set.of("graph", "node");
    private static final Set<String> GRAPH_KEYS = Set.of("name", "schedule", "catchup", "partition");
    private static final Set<String> NODE_KEYS = Set.of(
            "name", "produces", "consumes", "after", "trigger_rule", "operator", "pool", "retries", "params", "map",
            "max_map", "max_parallel", "leases");
    private static final BigInteger U32_MAX = BigInteger.valueOf(0xFFFF_FFFFL);

    private ShapeReader() {}

    static RawDefinition read(JsonNode root) {
        if (root == null || root.isMissingNode()) {
            throw shape("the document is empty; it must hold a `graph` table");
        }
        Table top = Table.of(root, "the top level");
        top.allowOnly(TOP_KEYS);
        Table graph = Table.of(top.required("graph"), "`graph`");
        graph.allowOnly(GRAPH_KEYS);
        String name = graph.requiredString("name");
        Optional<String> schedule = graph.optionalString("schedule");
        Optional<String> catchup = graph.optionalString("catchup");
        String partitionText = graph.optionalString("partition").orElse(Partitioning.NONE.configName());
        Partitioning partitioning = Partitioning.fromConfigName(partitionText).orElseThrow(() -> shape(
                "`graph`: `partition` must be \"daily\", \"hourly\" or \"none\", found \"" + partitionText + "\""));
        List<Node> nodes = new ArrayList<>();
        java.util.Map<Integer, RawDefinition.RawMap> maps = new java.util.HashMap<>();
        Optional<JsonNode> nodeArray = top.optional("node");
        if (nodeArray.isPresent()) {
            if (!nodeArray.get().isArray()) {
                throw shape("the top level: `node` must be an array of tables, found " + describe(nodeArray.get()));
            }
            for (int i = 0; i < nodeArray.get().size(); i++) {
                Table table = Table.of(nodeArray.get().get(i), "`node` #" + (i + 1));
                nodes.add(readNode(table));
                readMap(table, nodes.getLast().name()).ifPresent(m -> maps.put(nodes.size() - 1, m));
            }
        }
        return new RawDefinition(name, schedule, catchup, partitioning, nodes, maps);
    }

    /** A node table of a growth and its mapping keys; wrong shapes throw as in a definition. */
    record GrownTable(Node node, Optional<RawDefinition.RawMap> map) {}

    /** Reads table {@code i} of a growth's {@code node} array, named for messages as {@code grow.node #i+1}. */
    static GrownTable readGrown(JsonNode table, int i) {
        Table t = Table.of(table, "`swale.grow.node` #" + (i + 1));
        Node n = readNode(t);
        return new GrownTable(n, readMap(t, n.name()));
    }

    private static Node readNode(Table t) {
        t.allowOnly(NODE_KEYS);
        String name = t.requiredString("name");
        Optional<TriggerRule> rule = t.optionalString("trigger_rule").map(text -> TriggerRule.fromWireName(text)
                .orElseThrow(() -> shape(t.where() + ": `trigger_rule` must be \"all_succeeded\", \"all_done\" or "
                        + "\"one_failed\", found \"" + text + "\"")));
        JsonNode params = t.optional("params").orElseGet(JsonNodeFactory.instance::objectNode);
        if (!params.isObject()) {
            throw shape(t.where() + ": `params` must be a table, found " + describe(params));
        }
        // JSON, which an operator's params become, has no date type
        TreeSearch.first(params, POJONode.class::isInstance).ifPresent(found -> {
            throw shape(t.where() + ": `params" + found.path() + "` is " + describe(found.value())
                    + "; a parameter is a string, number, boolean, array or table");
        });
        return new Node(name, t.optionalString("produces"), t.stringList("consumes"), t.stringList("after"), rule,
                t.requiredString("operator"), t.optionalString("pool").orElse(Node.DEFAULT_POOL), retries(t), params,
                Optional.empty(), t.stringList("leases"));
    }

    /** The mapping keys of a node; their ranges are faults (MapChecks), their types parse errors naming the node. */
    private static Optional<RawDefinition.RawMap> readMap(Table t, String node) {
        Optional<JsonNode> map = t.optional("map");
        Optional<JsonNode> maxMap = t.optional("max_map");
        Optional<JsonNode> maxParallel = t.optional("max_parallel");
        if (map.isEmpty() && maxMap.isEmpty() && maxParallel.isEmpty()) {
            return Optional.empty();
        }
        String where = t.where() + " (`" + node + "`)";
        if (map.isPresent() && !map.get().isString()) {
            throw shape(where + ": `map` must be a string holding one reference such as \"{{ upstream.list.files }}\","
                    + " found " + describe(map.get()));
        }
        return Optional.of(new RawDefinition.RawMap(map.map(JsonNode::asString), integer(where, "max_map", maxMap),
                integer(where, "max_parallel", maxParallel)));
    }

    private static Optional<Long> integer(String where, String key, Optional<JsonNode> value) {
        if (value.isEmpty()) {
            return Optional.empty();
        }
        JsonNode v = value.get();
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw shape(where + ": `" + key + "` must be an integer, found " + describe(v));
        }
        return Optional.of(v.longValue());
    }

    private static long retries(Table t) {
        Optional<JsonNode> value = t.optional("retries");
        if (value.isEmpty()) {
            return 0;
        }
        JsonNode v = value.get();
        if (!v.isIntegralNumber() || v.bigIntegerValue().signum() < 0 || v.bigIntegerValue().compareTo(U32_MAX) > 0) {
            throw shape(t.where() + ": `retries` must be an unsigned 32-bit integer (0 to 4294967295), found "
                    + describe(v));
        }
        return v.longValue();
    }

    static DefinitionParseException shape(String explanation) {
        return new DefinitionParseException("invalid definition shape: " + explanation);
    }

    /** A date or time as TOML writes it, seconds included (java.time's own text drops {@code :00}). */
    private static String tomlText(TemporalAccessor t) {
        return switch (t) {
            case java.time.LocalTime time -> DateTimeFormatter.ISO_LOCAL_TIME.format(time);
            case java.time.LocalDateTime dateTime -> DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(dateTime);
            case java.time.OffsetDateTime dateTime -> DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(dateTime);
            default -> t.toString();
        };
    }

    static String describe(JsonNode v) {
        if (v.isString()) {
            return "the string \"" + v.asString() + "\"";
        }
        if (v.isNumber() || v.isBoolean()) {
            return (v.isIntegralNumber() ? "the integer " : v.isNumber() ? "the number " : "the boolean ") + v;
        }
        if (v.isObject()) {
            return "a table";
        }
        if (v.isArray()) {
            return "an array";
        }
        if (v instanceof POJONode p && p.getPojo() instanceof TemporalAccessor t) {
            return "the TOML date or time " + tomlText(t) + " (quote it to make it a string)";
        }
        return v.isNull() ? "null" : v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    }

    /** One table of the document and where it is, for messages. */
    private record Table(JsonNode node, String where) {
        static Table of(JsonNode node, String where) {
            if (node == null || !node.isObject()) {
                throw shape(where + " must be a table, found " + (node == null ? "nothing" : describe(node)));
            }
            return new Table(node, where);
        }

        void allowOnly(Set<String> keys) {
            TreeSet<String> unknown = new TreeSet<>();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                if (!keys.contains(e.getKey())) {
                    unknown.add(e.getKey());
                }
            }
            if (!unknown.isEmpty()) {
                throw shape(where + ": unknown key `" + unknown.first() + "`; allowed keys are "
                        + String.join(", ", new TreeSet<>(keys)));
            }
        }

        Optional<JsonNode> optional(String key) {
            return Optional.ofNullable(node.get(key));
        }

        JsonNode required(String key) {
            return optional(key).orElseThrow(() -> shape(where + ": missing required key `" + key + "`"));
        }

        String requiredString(String key) {
            return string(key, required(key));
        }

        Optional<String> optionalString(String key) {
            return optional(key).map(v -> string(key, v));
        }

        List<String> stringList(String key) {
            Optional<JsonNode> value = optional(key);
            if (value.isEmpty()) {
                return List.of();
            }
            if (!value.get().isArray()) {
                throw shape(where + ": `" + key + "` must be an array of strings, found " + describe(value.get()));
            }
            List<String> out = new ArrayList<>();
            for (int i = 0; i < value.get().size(); i++) {
                out.add(string(key + "[" + i + "]", value.get().get(i)));
            }
            return out;
        }

        private String string(String key, JsonNode v) {
            if (!v.isString()) {
                throw shape(where + ": `" + key + "` must be a string, found " + describe(v));
            }
            return v.asString();
        }
    }
}
