package io.swale.definition;

import io.swale.graph.Node;
import io.swale.graph.Partitioning;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** The graph faults G1–G7: names, schedule, nodes and assets, each group in the order of §1.7. */
final class GraphChecks {
    /** Graph + node name bound that keeps a run id within 128 bytes. */
    static final int MAX_NAMES_BYTES = 98;

    private static final Pattern NAME = Pattern.compile("[a-z0-9_]+");
    private static final String CHARSET = "names are non-empty and use only a-z, 0-9 and _";

    private final RawDefinition d;
    private final CronCheck cron;
    private final List<Fault> faults = new ArrayList<>();

    private GraphChecks(RawDefinition d, CronCheck cron) {
        this.d = d;
        this.cron = cron;
    }

    static List<Fault> check(RawDefinition d, CronCheck cron) {
        GraphChecks c = new GraphChecks(d, cron);
        c.graphName();
        c.schedule();
        c.nodeNames();
        c.assetNames();
        c.duplicateAssets();
        c.unknownReferences();
        return c.faults;
    }

    static boolean validName(String name) {
        return NAME.matcher(name).matches();
    }

    private void graphName() {
        if (!validName(d.name())) {
            faults.add(Fault.ofGraph(FaultKind.INVALID_GRAPH_NAME, "invalid graph name `" + d.name() + "`: " + CHARSET));
        }
    }

    private void schedule() {
        d.schedule().ifPresent(expression -> {
            cron.problem(expression).ifPresent(why -> faults.add(Fault.ofGraph(FaultKind.INVALID_SCHEDULE,
                    "invalid schedule `" + expression + "`: " + why)));
            if (d.partitioning() == Partitioning.NONE) {
                faults.add(Fault.ofGraph(FaultKind.SCHEDULE_WITHOUT_PARTITION, "the graph has a schedule but partition "
                        + "is `none`; a scheduled graph must be `daily` or `hourly`"));
            }
        });
    }

    private void nodeNames() {
        if (d.nodes().isEmpty()) {
            faults.add(Fault.ofGraph(FaultKind.NO_NODES, "the graph has no nodes: add at least one [[node]]"));
        }
        int graphBytes = d.name().getBytes(StandardCharsets.UTF_8).length;
        Set<String> seen = new HashSet<>();
        for (Node n : d.nodes()) {
            String name = n.name();
            if (!validName(name)) {
                faults.add(Fault.ofNode(FaultKind.INVALID_NODE_NAME, name, "invalid node name `" + name + "`: " + CHARSET));
            } else if (graphBytes + name.length() > MAX_NAMES_BYTES) {
                faults.add(Fault.ofNode(FaultKind.NAMES_TOO_LONG, name, "node `" + name + "`: graph name and node name "
                        + "take " + (graphBytes + name.length()) + " bytes together, more than the " + MAX_NAMES_BYTES
                        + "-byte bound"));
            }
            if (!seen.add(name)) {
                faults.add(Fault.ofNode(FaultKind.DUPLICATE_NODE, name, "duplicate node name `" + name
                        + "`: an earlier node already uses it"));
            }
        }
    }

    private void assetNames() {
        for (Node n : d.nodes()) {
            if (!n.isAsset()) {
                continue;
            }
            List<String> assets = new ArrayList<>();
            assets.add(n.produces().orElseThrow());
            assets.addAll(n.consumes());
            for (String asset : assets) {
                if (!validName(asset)) {
                    faults.add(Fault.ofNode(FaultKind.INVALID_ASSET_NAME, n.name(), "node `" + n.name()
                            + "`: invalid asset name `" + asset + "`: " + CHARSET));
                }
            }
        }
    }

    private void duplicateAssets() {
        for (Map.Entry<String, List<String>> e : new TreeMap<>(d.producers()).entrySet()) {
            if (e.getValue().size() > 1) {
                faults.add(Fault.ofGraph(FaultKind.DUPLICATE_ASSET, "asset `" + e.getKey()
                        + "` is produced by more than one node: " + quoted(e.getValue())));
            }
        }
    }

    private void unknownReferences() {
        Map<String, List<String>> producers = d.producers();
        Set<String> names = d.nodeNames();
        for (Node n : d.nodes()) {
            if (n.isAsset()) {
                for (String asset : n.consumes()) {
                    if (!producers.containsKey(asset)) {
                        faults.add(Fault.ofNode(FaultKind.UNKNOWN_ASSET, n.name(), "node `" + n.name()
                                + "` consumes asset `" + asset + "`, which no node produces"));
                    }
                }
            } else {
                for (String upstream : n.after()) {
                    if (!names.contains(upstream)) {
                        faults.add(Fault.ofNode(FaultKind.UNKNOWN_NODE, n.name(), "node `" + n.name()
                                + "` is after `" + upstream + "`, which is not a node of the graph"));
                    }
                }
            }
        }
    }

    private static String quoted(List<String> names) {
        return String.join(", ", names.stream().map(s -> "`" + s + "`").toList());
    }
}
