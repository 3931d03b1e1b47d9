package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Node;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The `leases` field of a node (docs/resources.md): read from TOML and YAML alike, every fault at once. */
class LeasesDefinitionTest {

    @Test
    void tomlAndYamlReadTheSameLeases() {
        Node toml = TestOperators.loader().load("""
                [graph]
                name = "g"
                [[node]]
                name = "pick"
                operator = "noop"
                [[node]]
                name = "load"
                operator = "noop"
                after = ["pick"]
                leases = ["warehouse", "agent:{{ upstream.pick.agent }}", "day/{{ partition }}"]
                """, DefinitionFormat.TOML).graph().node("load").orElseThrow();
        Node yaml = TestOperators.loader().load("""
                graph: {name: g}
                node:
                  - {name: pick, operator: noop}
                  - name: load
                    operator: noop
                    after: [pick]
                    leases: [warehouse, "agent:{{ upstream.pick.agent }}", "day/{{ partition }}"]
                """, DefinitionFormat.YAML).graph().node("load").orElseThrow();
        assertThat(toml.leases()).containsExactly("warehouse", "agent:{{ upstream.pick.agent }}", "day/{{ partition }}");
        assertThat(yaml.leases()).isEqualTo(toml.leases());
        assertThat(TestOperators.loader().load("[graph]\nname = \"g\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\n",
                DefinitionFormat.TOML).graph().node("a").orElseThrow().leases()).isEmpty();
    }

    @Test
    void leasesMustBeAnArrayOfStrings() {
        assertThatThrownBy(() -> TestOperators.loader().load("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                operator = "noop"
                leases = "warehouse"
                """, DefinitionFormat.TOML)).isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("`leases` must be an array of strings");
        assertThatThrownBy(() -> TestOperators.loader().load("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                operator = "noop"
                leases = [3]
                """, DefinitionFormat.TOML)).isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("`leases[0]` must be a string");
    }

    @Test
    void everyBadLeaseIsAFaultNamingItsNodeAtOnce() {
        List<Fault> faults = Faults.of("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                operator = "noop"
                leases = ["ware house", "x", "x", "{{ upstream.nobody.k }}", "{{ partition | sh }}", "{{ nope }}"]
                [[node]]
                name = "b"
                operator = "noop"
                leases = ["-dash-first"]
                """);
        assertThat(faults).extracting(Fault::kind).containsOnly(FaultKind.INVALID_LEASE);
        assertThat(faults).extracting(f -> f.node().orElseThrow()).containsExactly("a", "a", "a", "a", "a", "b");
        assertThat(faults.get(0).message()).contains("node `a`", "invalid resource name `ware house`");
        assertThat(faults.get(1).message()).contains("lease `x` is listed twice");
        assertThat(faults.get(2).message()).contains("`upstream.nobody`", "not an upstream");
        assertThat(faults.get(3).message()).contains("`sh` filter");
        assertThat(faults.get(4).message()).contains("lease `{{ nope }}`", "invalid reference");
        assertThat(faults.get(5).message()).contains("node `b`", "`-dash-first`");
    }

    @Test
    void itemInTheLeasesOfANodeWithoutMapIsAFaultAtLoadWithTheOthers() {
        List<Fault> faults = Faults.of("""
                [graph]
                name = "g"
                [[node]]
                name = "list"
                operator = "noop"
                [[node]]
                name = "plain"
                operator = "noop"
                after = ["list"]
                leases = ["agent:{{ item }}", "slot-{{ map.index }}", "x", "x"]
                [[node]]
                name = "mapped"
                operator = "noop"
                after = ["list"]
                map = "{{ upstream.list }}"
                leases = ["agent:{{ item.agent }}", "slot-{{ map.index }}"]
                """);
        assertThat(faults).extracting(f -> f.node().orElseThrow()).containsOnly("plain");
        assertThat(faults).extracting(Fault::kind).containsExactlyInAnyOrder(FaultKind.INVALID_LEASE,
                FaultKind.ITEM_OUTSIDE_MAP, FaultKind.ITEM_OUTSIDE_MAP);
        assertThat(faults).filteredOn(f -> f.kind() == FaultKind.ITEM_OUTSIDE_MAP).extracting(Fault::message)
                .satisfiesExactly(
                        m -> assertThat(m).contains("node `plain`", "lease `agent:{{ item }}`", "mapped node"),
                        m -> assertThat(m).contains("node `plain`", "lease `slot-{{ map.index }}`"));
    }

    @Test
    void moreThanSixteenLeasesIsAFault() {
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < 17; i++) {
            names.append(i == 0 ? "" : ", ").append("\"r").append(i).append('"');
        }
        assertThat(Faults.of("[graph]\nname = \"g\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\nleases = [" + names
                + "]\n").get(0).message()).contains("17 names, more than 16");
    }

    @Test
    void strictModeNamesEveryUndeclaredLiteralResourceAndItsNode() {
        var graph = TestOperators.loader().load("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                operator = "noop"
                leases = ["warehouse", "agent:{{ partition }}", "declared"]
                [[node]]
                name = "b"
                operator = "noop"
                leases = ["gpu"]
                """, DefinitionFormat.TOML).graph();
        List<Fault> faults = LeaseChecks.undeclared(graph.nodes(), List.of(), "declared"::equals);
        assertThat(faults).extracting(Fault::kind).containsOnly(FaultKind.UNDECLARED_RESOURCE);
        assertThat(faults).extracting(Fault::message).satisfiesExactly(
                m -> assertThat(m).contains("node `a`", "`warehouse`", "no declared capacity"),
                m -> assertThat(m).contains("node `b`", "`gpu`"));
    }

    @Test
    void inStrictModeAnUndeclaredLiteralLeaseIsOneMoreFaultAndATemplatedOneIsNotAskedAbout() {
        String text = """
                [graph]
                name = "g"
                [[node]]
                name = "load"
                operator = "noop"
                after = ["missing"]
                leases = ["warehouse", "mart", "agent:{{ partition }}"]
                """;
        List<String> asked = new java.util.ArrayList<>();
        DefinitionLoader strict = TestOperators.loader().withDeclaredResources(name -> {
            asked.add(name);
            return name.equals("warehouse");
        });
        assertThatThrownBy(() -> strict.load(text, DefinitionFormat.TOML))
                .isInstanceOfSatisfying(InvalidDefinitionException.class, e -> assertThat(e.faults())
                        .extracting(Fault::kind).containsExactlyInAnyOrder(FaultKind.UNDECLARED_RESOURCE,
                                FaultKind.UNKNOWN_NODE));
        assertThat(asked).containsExactly("warehouse", "mart");
        assertThatThrownBy(() -> TestOperators.loader().load(text, DefinitionFormat.TOML))
                .isInstanceOfSatisfying(InvalidDefinitionException.class, e -> assertThat(e.faults())
                        .extracting(Fault::kind).containsExactly(FaultKind.UNKNOWN_NODE));
    }

    @Test
    void inStrictModeANodesBadLeaseDoesNotHideAnotherNodesUndeclaredOne() {
        String text = """
                [graph]
                name = "g"
                [[node]]
                name = "bad"
                operator = "noop"
                leases = ["agent:{{ nope"]
                [[node]]
                name = "load"
                operator = "noop"
                leases = ["mart"]
                """;
        assertThatThrownBy(() -> TestOperators.loader().withDeclaredResources(name -> false).load(text, DefinitionFormat.TOML))
                .isInstanceOfSatisfying(InvalidDefinitionException.class, e -> assertThat(e.faults())
                        .extracting(Fault::kind, f -> f.node().orElseThrow()).containsExactlyInAnyOrder(
                                org.assertj.core.groups.Tuple.tuple(FaultKind.INVALID_LEASE, "bad"),
                                org.assertj.core.groups.Tuple.tuple(FaultKind.UNDECLARED_RESOURCE, "load")));
    }
}
