package io.swale.definition;

import io.swale.graph.Node;
import io.swale.template.LeaseNames;
import java.util.ArrayList;
import java.util.List;

/** The faults of a node's {@code leases} (docs/resources.md), every one at once, each naming its node. */
public final class LeaseChecks {
    private LeaseChecks() {}

    static List<Fault> check(RawDefinition d) {
        List<Fault> faults = new ArrayList<>();
        var producers = d.producers();
        var names = d.nodeNames();
        for (int i = 0; i < d.nodes().size(); i++) {
            Node n = d.nodes().get(i);
            for (String problem : LeaseNames.check(n.leases(), d.upstreamsOf(n, producers, names))) {
                faults.add(Fault.ofNode(FaultKind.INVALID_LEASE, n.name(), "node `" + n.name() + "`: " + problem));
            }
            if (!MapChecks.isMapped(d, i)) {
                // found at publish rather than when the first instance renders its leases and fails
                for (String text : LeaseNames.itemReferences(n.leases())) {
                    faults.add(Fault.ofNode(FaultKind.ITEM_OUTSIDE_MAP, n.name(), "node `" + n.name() + "`: lease `"
                            + text + "`: `item` and `map.index` are set only in a mapped node (one with `map`)"));
                }
            }
        }
        return faults;
    }

    /**
     * The faults of strict mode: a literal lease on a resource with no declared capacity, in each node that has no
     * fault of its leases in {@code leaseFaults} (a name that is no name is not asked about).
     *
     * @param declared whether a resource name has a declared capacity
     */
    static List<Fault> undeclared(Iterable<Node> nodes, List<Fault> leaseFaults,
            java.util.function.Predicate<String> declared) {
        java.util.Set<String> faulty = new java.util.HashSet<>();
        leaseFaults.forEach(f -> f.node().ifPresent(faulty::add));
        List<Fault> faults = new ArrayList<>();
        for (Node n : nodes) {
            if (faulty.contains(n.name())) {
                continue;
            }
            for (String name : LeaseNames.literals(n.leases())) {
                if (!declared.test(name)) {
                    faults.add(Fault.ofNode(FaultKind.UNDECLARED_RESOURCE, n.name(), "node `" + n.name()
                            + "` leases `" + name + "`, which has no declared capacity (swale.resources.strict is on: "
                            + "declare it with swale.resources.capacities." + name + " or PUT /api/v1/resources/" + name
                            + ")"));
                }
            }
        }
        return faults;
    }
}
