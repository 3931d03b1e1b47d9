package io.swale.definition;

import static io.swale.definition.FaultKind.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The reporting order of §1.7. */
class FaultOrderTest {

    @Test
    void everyGroupInTableOrder() {
        List<Fault> faults = Faults.of("""
                [graph]
                name = "Bad"
                schedule = "nope"
                catchup = "1.5h"

                [[node]]
                name = "Dup"
                operator = "teleport"
                after = ["ghost"]
                consumes = ["x"]
                [node.params]
                a = "{{ upstream.ghost }}"

                [[node]]
                name = "Dup"
                produces = "Asset"
                consumes = ["missing"]
                after = ["whatever"]
                trigger_rule = "one_failed"
                operator = "shell"

                [[node]]
                name = "p"
                produces = "Asset"
                operator = "noop"
                [node.params]
                s = "{{"
                """);
        assertThat(faults).extracting(Fault::kind).containsExactly(
                INVALID_CATCHUP,
                TASK_NODE_CONSUMES,
                ASSET_NODE_AFTER,
                ASSET_NODE_TRIGGER_RULE,
                INVALID_GRAPH_NAME,
                INVALID_SCHEDULE,
                SCHEDULE_WITHOUT_PARTITION,
                INVALID_NODE_NAME,
                INVALID_NODE_NAME,
                DUPLICATE_NODE,
                INVALID_ASSET_NAME,
                INVALID_ASSET_NAME,
                DUPLICATE_ASSET,
                UNKNOWN_NODE,
                UNKNOWN_ASSET,
                UNKNOWN_OPERATOR,
                UNKNOWN_TEMPLATE_UPSTREAM,
                INVALID_PARAMS,
                INVALID_TEMPLATE);
        assertThat(faults).extracting(f -> f.node().orElse("-")).containsExactly(
                "-", "Dup", "Dup", "Dup", "-", "-", "-", "Dup", "Dup", "Dup", "Dup", "p", "-", "Dup", "Dup", "Dup",
                "Dup", "Dup", "p");
    }

    @Test
    void fileFaultsPerNodeInFileOrder() {
        assertThat(Faults.of("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                produces = "a"
                trigger_rule = "all_done"
                after = ["c"]
                operator = "noop"
                [[node]]
                name = "b"
                consumes = ["a"]
                operator = "noop"
                [[node]]
                name = "c"
                produces = "c"
                after = ["b"]
                operator = "noop"
                """)).extracting(Fault::kind, f -> f.node().orElseThrow()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(ASSET_NODE_AFTER, "a"),
                org.assertj.core.groups.Tuple.tuple(ASSET_NODE_TRIGGER_RULE, "a"),
                org.assertj.core.groups.Tuple.tuple(TASK_NODE_CONSUMES, "b"),
                org.assertj.core.groups.Tuple.tuple(ASSET_NODE_AFTER, "c"));
    }

    @Test
    void fileFaultsPrecedeGraphFaults() {
        assertThat(Faults.kinds("""
                [graph]
                name = "Bad"
                [[node]]
                name = "a"
                produces = "a"
                trigger_rule = "all_done"
                operator = "noop"
                """)).containsExactly(ASSET_NODE_TRIGGER_RULE, INVALID_GRAPH_NAME);
    }

    @Test
    void invalidScheduleBeforeScheduleWithoutPartition() {
        assertThat(Faults.kinds("""
                [graph]
                name = "g"
                schedule = "* *"
                partition = "none"
                [[node]]
                name = "a"
                operator = "noop"
                """)).containsExactly(INVALID_SCHEDULE, SCHEDULE_WITHOUT_PARTITION);
    }

    @Test
    void nodeNameFaultsPerNodeAndOneDuplicatePerExtraOccurrence() {
        String graph = "g".repeat(60);
        String longName = "n".repeat(39);
        List<Fault> faults = Faults.of("[graph]\nname = \"" + graph + "\"\n"
                + node("a") + node("Bad") + node(longName) + node("a") + node("Bad") + node(longName) + node("a"));
        assertThat(faults).extracting(Fault::kind, f -> f.node().orElseThrow()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(INVALID_NODE_NAME, "Bad"),
                org.assertj.core.groups.Tuple.tuple(NAMES_TOO_LONG, longName),
                org.assertj.core.groups.Tuple.tuple(DUPLICATE_NODE, "a"),
                org.assertj.core.groups.Tuple.tuple(INVALID_NODE_NAME, "Bad"),
                org.assertj.core.groups.Tuple.tuple(DUPLICATE_NODE, "Bad"),
                org.assertj.core.groups.Tuple.tuple(NAMES_TOO_LONG, longName),
                org.assertj.core.groups.Tuple.tuple(DUPLICATE_NODE, longName),
                org.assertj.core.groups.Tuple.tuple(DUPLICATE_NODE, "a"));
    }

    @Test
    void namesTooLongOnlyForValidNodeNames() {
        String graph = "g".repeat(90);
        assertThat(Faults.kinds("[graph]\nname = \"" + graph + "\"\n" + node("Invalid_name"))).containsExactly(INVALID_NODE_NAME);
    }

    @Test
    void assetNamesProducedThenConsumed() {
        List<Fault> faults = Faults.of("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                produces = "B"
                consumes = ["C", "d", "E"]
                operator = "noop"
                [[node]]
                name = "b"
                produces = "F-1"
                operator = "noop"
                """);
        assertThat(faults).extracting(Fault::kind).containsOnly(INVALID_ASSET_NAME, UNKNOWN_ASSET);
        assertThat(faults.subList(0, 4)).extracting(Fault::message).satisfiesExactly(
                m -> assertThat(m).contains("`B`"),
                m -> assertThat(m).contains("`C`"),
                m -> assertThat(m).contains("`E`"),
                m -> assertThat(m).contains("`F-1`"));
    }

    @Test
    void duplicateAssetsInLexicalOrderWithProducersInFileOrderRepeated() {
        List<Fault> faults = Faults.of("""
                [graph]
                name = "g"
                [[node]]
                name = "x"
                produces = "zeta"
                operator = "noop"
                [[node]]
                name = "y"
                produces = "alpha"
                operator = "noop"
                [[node]]
                name = "x"
                produces = "zeta"
                operator = "noop"
                [[node]]
                name = "w"
                produces = "alpha"
                operator = "noop"
                [[node]]
                name = "v"
                produces = "zeta"
                operator = "noop"
                """);
        assertThat(faults).extracting(Fault::kind).containsExactly(DUPLICATE_NODE, DUPLICATE_ASSET, DUPLICATE_ASSET);
        assertThat(faults.get(1).message()).contains("asset `alpha`", "`y`, `w`");
        assertThat(faults.get(2).message()).contains("asset `zeta`", "`x`, `x`, `v`");
    }

    @Test
    void unknownsInConsumesAndAfterOrderPerNode() {
        List<Fault> faults = Faults.of("""
                [graph]
                name = "g"
                [[node]]
                name = "t"
                after = ["z", "a", "known"]
                operator = "noop"
                [[node]]
                name = "known"
                produces = "k"
                consumes = ["q", "k2", "b"]
                operator = "noop"
                [[node]]
                name = "k2"
                produces = "k2"
                operator = "noop"
                """);
        assertThat(faults).extracting(Fault::kind).containsExactly(UNKNOWN_NODE, UNKNOWN_NODE, UNKNOWN_ASSET, UNKNOWN_ASSET);
        assertThat(faults).extracting(Fault::message).satisfiesExactly(
                m -> assertThat(m).contains("`z`"),
                m -> assertThat(m).contains("`a`"),
                m -> assertThat(m).contains("`q`"),
                m -> assertThat(m).contains("`b`"));
    }

    @Test
    void operatorCheckThenTemplatesInKeyOrderEvenForUnknownOperators() {
        List<Fault> faults = Faults.of("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                operator = "teleport"
                [node.params]
                zz = "{{ upstream.b }}"
                nested = { list = ["{{ partition }}", "{{ bad }}"] }
                aa = "{{ upstream.c }} {{ upstream.b }} {{ upstream.c.x }}"
                [[node]]
                name = "b"
                operator = "shell"
                [node.params]
                command = 3
                extra = "{{"
                """);
        assertThat(faults).extracting(Fault::kind, f -> f.node().orElseThrow()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(UNKNOWN_OPERATOR, "a"),
                org.assertj.core.groups.Tuple.tuple(UNKNOWN_TEMPLATE_UPSTREAM, "a"),
                org.assertj.core.groups.Tuple.tuple(UNKNOWN_TEMPLATE_UPSTREAM, "a"),
                org.assertj.core.groups.Tuple.tuple(INVALID_TEMPLATE, "a"),
                org.assertj.core.groups.Tuple.tuple(UNKNOWN_TEMPLATE_UPSTREAM, "a"),
                org.assertj.core.groups.Tuple.tuple(INVALID_PARAMS, "b"),
                org.assertj.core.groups.Tuple.tuple(INVALID_TEMPLATE, "b"));
        assertThat(faults).extracting(Fault::message).satisfiesExactly(
                m -> assertThat(m).contains("`teleport`"),
                m -> assertThat(m).contains("`aa`", "`c`"),
                m -> assertThat(m).contains("`aa`", "`b`"),
                m -> assertThat(m).contains("`nested.list.1`", "`bad`"),
                m -> assertThat(m).contains("`zz`", "`b`"),
                m -> assertThat(m).contains("`shell`"),
                m -> assertThat(m).contains("`extra`", "byte offset 0"));
    }

    @Test
    void templateUpstreamsOfAnAssetNodeAreTheProducersOfItsAssets() {
        Definition d = TestOperators.loader().load("""
                [graph]
                name = "g"
                [[node]]
                name = "src"
                produces = "raw"
                operator = "noop"
                [[node]]
                name = "dst"
                produces = "clean"
                consumes = ["raw"]
                operator = "noop"
                [node.params]
                v = "{{ upstream.src.n }}"
                """, DefinitionFormat.TOML);
        assertThat(d.graph().upstreams("dst")).containsExactly("src");
    }

    @Test
    void cycleIsNotReportedAlongsideOtherFaults() {
        assertThat(Faults.kinds("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                after = ["b"]
                operator = "teleport"
                [[node]]
                name = "b"
                after = ["a"]
                operator = "noop"
                """)).containsExactly(UNKNOWN_OPERATOR);
    }

    private static String node(String name) {
        return "[[node]]\nname = \"" + name + "\"\noperator = \"noop\"\n";
    }
}
