package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One test per fault kind of §1.7: the kind, the node it is about, and what the message names. */
class FaultKindsTest {

    private static final String OK_NODE = """
            [[node]]
            name = "ok"
            operator = "noop"
            """;

    @Test
    void invalidCatchup() {
        Fault f = single("""
                [graph]
                name = "g"
                catchup = "7w"
                """ + OK_NODE);
        assertThat(f.kind()).isEqualTo(FaultKind.INVALID_CATCHUP);
        assertThat(f.node()).isEmpty();
        assertThat(f.message()).contains("`7w`", "`30s`", "`5m`", "`6h`", "`7d`");
    }

    @Test
    void catchupIsCheckedEvenWithoutSchedule() {
        assertThat(Faults.kinds("[graph]\nname = \"g\"\ncatchup = \"soon\"\n" + OK_NODE))
                .containsExactly(FaultKind.INVALID_CATCHUP);
    }

    @Test
    void assetNodeAfter() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                operator = "noop"
                [[node]]
                name = "b"
                produces = "b"
                after = ["a"]
                operator = "noop"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.ASSET_NODE_AFTER);
        assertThat(f.node()).contains("b");
        assertThat(f.message()).contains("`b`", "consumes");
    }

    @Test
    void assetNodeTriggerRuleWhateverItsValue() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "b"
                produces = "b"
                trigger_rule = "all_succeeded"
                operator = "noop"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.ASSET_NODE_TRIGGER_RULE);
        assertThat(f.node()).contains("b");
        assertThat(f.message()).contains("`b`", "all_succeeded");
    }

    @Test
    void taskNodeConsumes() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                produces = "x"
                operator = "noop"
                [[node]]
                name = "t"
                consumes = ["x"]
                operator = "noop"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.TASK_NODE_CONSUMES);
        assertThat(f.node()).contains("t");
        assertThat(f.message()).contains("`t`", "after");
    }

    @Test
    void emptyListsAreNotFaults() {
        assertThat(TestOperators.loader().load("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                produces = "x"
                after = []
                operator = "noop"
                [[node]]
                name = "t"
                consumes = []
                operator = "noop"
                """, DefinitionFormat.TOML).graph().nodes()).hasSize(2);
    }

    @Test
    void invalidGraphName() {
        for (String name : new String[] {"Orders", "orders-daily", "ordérs", ""}) {
            Fault f = single("[graph]\nname = \"" + name + "\"\n" + OK_NODE);
            assertThat(f.kind()).isEqualTo(FaultKind.INVALID_GRAPH_NAME);
            assertThat(f.node()).isEmpty();
            assertThat(f.message()).contains("`" + name + "`", "a-z, 0-9 and _");
        }
    }

    @Test
    void invalidSchedule() {
        Fault f = single("""
                [graph]
                name = "g"
                schedule = "0 2 * *"
                partition = "daily"
                """ + OK_NODE);
        assertThat(f.kind()).isEqualTo(FaultKind.INVALID_SCHEDULE);
        assertThat(f.message()).contains("`0 2 * *`", "5 fields", "found 4");
    }

    @Test
    void scheduleWithoutPartition() {
        Fault f = single("""
                [graph]
                name = "g"
                schedule = "0 2 * * *"
                """ + OK_NODE);
        assertThat(f.kind()).isEqualTo(FaultKind.SCHEDULE_WITHOUT_PARTITION);
        assertThat(f.message()).contains("daily", "hourly");
    }

    @Test
    void noNodes() {
        assertThat(single("[graph]\nname = \"g\"\n").kind()).isEqualTo(FaultKind.NO_NODES);
        assertThat(single("node = []\n[graph]\nname = \"g\"\n").kind()).isEqualTo(FaultKind.NO_NODES);
    }

    @Test
    void invalidNodeName() {
        Fault f = single("[graph]\nname = \"g\"\n[[node]]\nname = \"Extract\"\noperator = \"noop\"\n");
        assertThat(f.kind()).isEqualTo(FaultKind.INVALID_NODE_NAME);
        assertThat(f.node()).contains("Extract");
        assertThat(f.message()).contains("`Extract`");
    }

    @Test
    void namesTooLongAbove98Bytes() {
        String graph = "g".repeat(50);
        String fits = "n".repeat(48);
        String tooLong = "m".repeat(49);
        Fault f = single("[graph]\nname = \"" + graph + "\"\n"
                + "[[node]]\nname = \"" + fits + "\"\noperator = \"noop\"\n"
                + "[[node]]\nname = \"" + tooLong + "\"\noperator = \"noop\"\n");
        assertThat(f.kind()).isEqualTo(FaultKind.NAMES_TOO_LONG);
        assertThat(f.node()).contains(tooLong);
        assertThat(f.message()).contains("`" + tooLong + "`", "98");
    }

    @Test
    void duplicateNode() {
        Fault f = single("[graph]\nname = \"g\"\n" + OK_NODE + OK_NODE);
        assertThat(f.kind()).isEqualTo(FaultKind.DUPLICATE_NODE);
        assertThat(f.node()).contains("ok");
        assertThat(f.message()).contains("`ok`");
    }

    @Test
    void invalidAssetName() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                produces = ""
                operator = "noop"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.INVALID_ASSET_NAME);
        assertThat(f.node()).contains("a");
        assertThat(f.message()).contains("`a`", "asset name ``");
    }

    @Test
    void duplicateAsset() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                produces = "x"
                operator = "noop"
                [[node]]
                name = "b"
                produces = "x"
                operator = "noop"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.DUPLICATE_ASSET);
        assertThat(f.node()).isEmpty();
        assertThat(f.message()).contains("asset `x`", "`a`, `b`");
    }

    @Test
    void unknownAsset() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                produces = "x"
                consumes = ["ghost"]
                operator = "noop"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.UNKNOWN_ASSET);
        assertThat(f.node()).contains("a");
        assertThat(f.message()).contains("`a`", "`ghost`");
    }

    @Test
    void unknownNode() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "t"
                after = ["ghost"]
                operator = "noop"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.UNKNOWN_NODE);
        assertThat(f.node()).contains("t");
        assertThat(f.message()).contains("`t`", "`ghost`");
    }

    @Test
    void unknownOperator() {
        Fault f = single("[graph]\nname = \"g\"\n[[node]]\nname = \"a\"\noperator = \"teleport\"\n");
        assertThat(f.kind()).isEqualTo(FaultKind.UNKNOWN_OPERATOR);
        assertThat(f.node()).contains("a");
        assertThat(f.message()).contains("`a`", "`teleport`");
    }

    @Test
    void invalidParamsCarriesTheOperatorsExplanation() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                operator = "shell"
                [node.params]
                cmd = "true"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.INVALID_PARAMS);
        assertThat(f.node()).contains("a");
        assertThat(f.message()).contains("`a`", "`shell`", "missing field `command`");
    }

    @Test
    void invalidParamsWhenParamsAreAbsent() {
        Fault f = single("[graph]\nname = \"g\"\n[[node]]\nname = \"a\"\noperator = \"shell\"\n");
        assertThat(f.kind()).isEqualTo(FaultKind.INVALID_PARAMS);
    }

    @Test
    void invalidTemplate() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                operator = "noop"
                [node.params]
                nested = { list = ["fine", "{{ date }}"] }
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.INVALID_TEMPLATE);
        assertThat(f.node()).contains("a");
        assertThat(f.message()).contains("`a`", "`nested.list.1`", "`date`");
    }

    @Test
    void unknownTemplateUpstream() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "other"
                operator = "noop"
                [[node]]
                name = "a"
                operator = "shell"
                [node.params]
                command = "echo {{ upstream.other.n }}"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.UNKNOWN_TEMPLATE_UPSTREAM);
        assertThat(f.node()).contains("a");
        assertThat(f.message()).contains("`a`", "`command`", "`other`");
    }

    @Test
    void cycle() {
        Fault f = single("""
                [graph]
                name = "g"
                [[node]]
                name = "a"
                after = ["b"]
                operator = "noop"
                [[node]]
                name = "b"
                after = ["a"]
                operator = "noop"
                """);
        assertThat(f.kind()).isEqualTo(FaultKind.CYCLE);
        assertThat(f.node()).isEmpty();
        assertThat(f.message()).contains("a -> b -> a");
    }

    @Test
    void wireNamesAreTheSpecNames() {
        assertThat(FaultKind.INVALID_CATCHUP.wireName()).isEqualTo("InvalidCatchup");
        assertThat(FaultKind.UNKNOWN_TEMPLATE_UPSTREAM.wireName()).isEqualTo("UnknownTemplateUpstream");
        assertThat(FaultKind.SCHEDULE_WITHOUT_PARTITION.wireName()).isEqualTo("ScheduleWithoutPartition");
        for (FaultKind k : FaultKind.values()) {
            String camel = java.util.Arrays.stream(k.name().split("_"))
                    .map(w -> w.charAt(0) + w.substring(1).toLowerCase(java.util.Locale.ROOT))
                    .reduce("", String::concat);
            assertThat(k.wireName()).isEqualTo(camel);
        }
    }

    @Test
    void exceptionMessageIsOneLinePerFault() {
        InvalidDefinitionException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                InvalidDefinitionException.class, () -> TestOperators.loader().load("""
                        [graph]
                        name = "Bad"
                        """, DefinitionFormat.TOML));
        assertThat(e.getMessage().lines().toList()).containsExactly(
                e.faults().get(0).line(), e.faults().get(1).line());
        assertThat(e.getMessage()).startsWith("InvalidGraphName: ");
        assertThat(e.faults().get(1)).isEqualTo(
                new Fault(FaultKind.NO_NODES, Optional.empty(), e.faults().get(1).message()));
    }

    private static Fault single(String toml) {
        var faults = Faults.of(toml);
        assertThat(faults).hasSize(1);
        return faults.getFirst();
    }
}
