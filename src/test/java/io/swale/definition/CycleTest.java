package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** G9: the cycle path of §1.7, from a depth-first search in file order, upstreams in lexical order. */
class CycleTest {

    @Test
    void twoNodeCycle() {
        assertThat(cycleOf(task("a", "b"), task("b", "a"))).isEqualTo("a -> b -> a");
    }

    @Test
    void selfDependency() {
        assertThat(cycleOf(task("x"), task("a", "a"))).isEqualTo("a -> a");
    }

    @Test
    void assetNodeConsumingItsOwnAsset() {
        assertThat(cycleOf("""
                [[node]]
                name = "a"
                produces = "x"
                consumes = ["x"]
                operator = "noop"
                """)).isEqualTo("a -> a");
    }

    @Test
    void pathStartsAtTheRepeatedNodeNotAtTheStartNode() {
        assertThat(cycleOf(task("entry", "a"), task("a", "b"), task("b", "c"), task("c", "a")))
                .isEqualTo("a -> b -> c -> a");
    }

    @Test
    void startNodesInFileOrder() {
        assertThat(cycleOf(task("q", "p"), task("p", "q"))).isEqualTo("q -> p -> q");
    }

    @Test
    void upstreamsInLexicalOrder() {
        // from d, `b` is visited before `c` although `after` lists `c` first
        assertThat(cycleOf(task("d", "c", "b"), task("c", "d"), task("b", "d")))
                .isEqualTo("d -> b -> d");
    }

    @Test
    void finishedNodesAreNotRevisited() {
        assertThat(cycleOf(task("a"), task("b", "a"), task("c", "a", "b"), task("d", "e"), task("e", "d")))
                .isEqualTo("d -> e -> d");
    }

    @Test
    void mixedAssetAndTaskEdges() {
        assertThat(cycleOf("""
                [[node]]
                name = "load"
                produces = "warehouse"
                consumes = ["report"]
                operator = "noop"
                [[node]]
                name = "report"
                produces = "report"
                consumes = ["warehouse"]
                operator = "noop"
                """)).isEqualTo("load -> report -> load");
    }

    @Test
    void acyclicDiamondLoads() {
        Definition d = TestOperators.loader().load("[graph]\nname = \"g\"\n"
                + task("a") + task("b", "a") + task("c", "a") + task("d", "b", "c"), DefinitionFormat.TOML);
        assertThat(d.graph().edgeCount()).isEqualTo(4);
    }

    @Test
    void aLongChainDoesNotOverflowTheStack() {
        StringBuilder toml = new StringBuilder("[graph]\nname = \"g\"\n").append(task("n0", "n19999"));
        for (int i = 1; i < 20_000; i++) {
            toml.append(task("n" + i, "n" + (i - 1)));
        }
        List<Fault> faults = Faults.of(toml.toString());
        assertThat(faults).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(FaultKind.CYCLE);
            assertThat(f.message()).contains("n0 -> n19999 -> n19998").endsWith("n1 -> n0");
        });
    }

    private static String cycleOf(String... nodes) {
        List<Fault> faults = Faults.of("[graph]\nname = \"g\"\n" + String.join("", nodes));
        assertThat(faults).extracting(Fault::kind).containsExactly(FaultKind.CYCLE);
        String message = faults.getFirst().message();
        return message.substring(message.indexOf(": ") + 2);
    }

    private static String task(String name, String... after) {
        StringBuilder s = new StringBuilder("[[node]]\nname = \"").append(name).append("\"\noperator = \"noop\"\n");
        if (after.length > 0) {
            s.append("after = [").append(String.join(", ", List.of(after).stream().map(a -> "\"" + a + "\"").toList()))
                    .append("]\n");
        }
        return s.toString();
    }
}
