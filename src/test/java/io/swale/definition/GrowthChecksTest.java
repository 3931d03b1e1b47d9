package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Graph;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Declared growth checked against a run's graph (docs/dynamic-graphs.md §8): attachment, faults, storage. */
class GrowthChecksTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final DefinitionLoader LOADER = TestOperators.loader();
    private static final Graph RUN = LOADER.load("""
            [graph]
            name = "g"

            [[node]]
            name = "start"
            operator = "noop"

            [[node]]
            name = "decide"
            after = ["start"]
            operator = "noop"

            [[node]]
            name = "report"
            after = ["decide"]
            operator = "noop"
            """, DefinitionFormat.TOML).graph();

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    private static Growths.Check check(String grow) {
        return LOADER.checkGrowth(RUN, "decide", 0, json(grow));
    }

    @Test
    void aGrownChainRunsAfterTheDeclaringNodeAndBeforeItsDownstream() {
        Growths.Check c = check("""
                {"node": [{"name": "fix", "operator": "noop"},
                          {"name": "check", "after": ["fix"], "operator": "noop"},
                          {"name": "tell", "after": ["check"], "operator": "shell", "params": {"command": "echo {{ upstream.check }}"}}]}""");
        assertThat(c).isInstanceOf(Growths.Check.Valid.class);
        Graph g = ((Growths.Check.Valid) c).graph();
        assertThat(g.upstreams("fix")).containsExactly("decide");
        assertThat(g.upstreams("report")).containsExactly("decide", "tell");
        assertThat(g.grownBy("tell")).contains("decide");
        assertThat(g.grownBy("report")).isEmpty();
        assertThat(g.growthDepth("tell")).isEqualTo(1);
        // the stored text builds the same graph again
        Graph again = Growths.attach(RUN, ((Growths.Check.Valid) c).stored());
        assertThat(again.nodes()).extracting(io.swale.graph.Node::name)
                .containsExactly("start", "decide", "report", "fix", "check", "tell");
        assertThat(again.upstreams("report")).containsExactly("decide", "tell");
        assertThat(Growths.read(((Growths.Check.Valid) c).stored()).rerun()).isZero();
    }

    @Test
    void edgesToChoosesWhichDownstreamsWait() {
        Growths.Check c = check("""
                {"node": [{"name": "side", "operator": "noop"}], "edges_to": []}""");
        Graph g = ((Growths.Check.Valid) c).graph();
        assertThat(g.upstreams("report")).containsExactly("decide");
        assertThat(g.upstreams("side")).containsExactly("decide");
    }

    @Test
    void everyFaultAtOnce() {
        Growths.Check c = check("""
                {"node": [{"name": "a", "operator": "teleport"},
                          {"name": "b", "after": ["nowhere"], "operator": "noop"},
                          {"name": "b", "operator": "noop"},
                          {"name": "start", "operator": "noop"}],
                 "edges_to": ["start"]}""");
        assertThat(c).isInstanceOf(Growths.Check.Invalid.class);
        List<String> lines = ((Growths.Check.Invalid) c).error().lines().toList();
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("UnknownOperator: ").contains("`a`", "teleport"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("UnknownNode: ").contains("`b`", "`nowhere`"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("DuplicateNode: ").contains("`b`"));
        assertThat(lines).anySatisfy(l -> assertThat(l).isEqualTo("DuplicateNode: grown node `start` (grown by "
                + "`decide`) collides with node `start` of the run (in the definition)"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("InvalidGrowth: ").contains("`edges_to` names `start`"));
        assertThat(lines).hasSize(5);
    }

    @Test
    void aCycleAmongGrownNodesIsNamedWithItsPath() {
        Growths.Check c = check("""
                {"node": [{"name": "x", "after": ["y"], "operator": "noop"},
                          {"name": "y", "after": ["x"], "operator": "noop"}]}""");
        assertThat(((Growths.Check.Invalid) c).error()).startsWith("Cycle: the growth of `decide` would form a cycle: ")
                .containsAnyOf("x -> y -> x", "y -> x -> y");
    }

    @Test
    void aGrownNodeAfterTheDownstreamItDelaysIsACycle() {
        Growths.Check c = check("""
                {"node": [{"name": "late", "after": ["report"], "operator": "noop"}], "edges_to": ["report"]}""");
        assertThat(((Growths.Check.Invalid) c).error()).startsWith("Cycle: ").contains("report", "late");
    }

    @Test
    void wrongShapesAndNestingAreFaults() {
        assertThat(((Growths.Check.Invalid) check("[1]")).error()).startsWith("InvalidGrowth: ").contains("a table");
        assertThat(((Growths.Check.Invalid) check("{\"node\": {}, \"nodes\": 1}")).error().lines())
                .anySatisfy(l -> assertThat(l).contains("unknown key `nodes`"))
                .anySatisfy(l -> assertThat(l).contains("`node` must be an array"));
        assertThat(((Growths.Check.Invalid) check("{\"node\": [{\"name\": \"p\", \"produces\": \"a\", \"operator\": \"noop\"}]}"))
                .error()).contains("grown node `p`: `produces` and `consumes` are not allowed");
        Graph deep = RUN;
        String by = "decide";
        for (int d = 1; d <= Growths.MAX_DEPTH; d++) {
            Growths.Check c = LOADER.checkGrowth(deep, by, 0, json("{\"node\": [{\"name\": \"n" + d
                    + "\", \"operator\": \"noop\"}]}"));
            deep = ((Growths.Check.Valid) c).graph();
            by = "n" + d;
        }
        Growths.Check tooDeep = LOADER.checkGrowth(deep, by, 0, json("{\"node\": [{\"name\": \"n9\", \"operator\": \"noop\"}]}"));
        assertThat(((Growths.Check.Invalid) tooDeep).error()).contains("nested 9 growths deep, more than 8");
    }

    @Test
    void theRunMayHoldNoMoreNodesThanTheLimit() {
        DefinitionLoader small = new DefinitionLoader(TestOperators.registry(), CronCheck.FIVE_FIELDS,
                new DefinitionLimits(64, 4, 65_536, 256, 100, 1_000_000, 200));
        Growths.Check c = small.checkGrowth(RUN, "decide", 0, json("""
                {"node": [{"name": "one", "operator": "noop"}, {"name": "two", "operator": "noop"}]}"""));
        assertThat(((Growths.Check.Invalid) c).error()).startsWith("TooManyNodes: the graph has 5 nodes, more than 4");
    }

    @Test
    void anOutputDeclaresGrowthOnlyUnderSwaleGrow() {
        assertThat(Growths.declared(json("{\"swale\": {\"grow\": {\"node\": []}}}"))).isPresent();
        assertThat(Growths.declared(json("{\"grow\": {}}"))).isEmpty();
        assertThat(Growths.declared(json("[1, 2]"))).isEmpty();
    }

    @Test
    void oddGrowthsAreFaultsNeverExceptions() {
        // whatever an operator prints, the check answers: an exception would fail the finish on every attempt
        List<String> odd = List.of("\"x\"", "[]", "null", "{}", "{\"node\": null}", "{\"node\": [null]}",
                "{\"node\": [1]}", "{\"node\": [{}]}", "{\"node\": [{\"name\": 5}]}",
                "{\"node\": [], \"edges_to\": \"report\"}", "{\"node\": [], \"edges_to\": [null, 3]}",
                "{\"node\": [{\"name\": \"a\", \"operator\": \"noop\", \"after\": \"start\"}]}",
                "{\"node\": [{\"name\": \"a\", \"operator\": \"noop\", \"map\": \"{{ upstream.zzz }}\"}]}",
                "{\"node\": [{\"name\": \"a\", \"operator\": \"noop\", \"leases\": [5, null]}]}",
                "{\"node\": [{\"name\": \"a\", \"operator\": \"noop\", \"params\": [1]}]}",
                "{\"node\": [{\"name\": \"a\", \"operator\": null}]}",
                "{\"node\": [{\"name\": \"\", \"operator\": \"noop\"}]}",
                "{\"node\": [{\"name\": \"a\", \"operator\": \"noop\", \"after\": [\"a\"]}]}");
        for (String grow : odd) {
            Growths.Check c = check(grow);
            assertThat(c).as(grow).isInstanceOf(Growths.Check.Invalid.class);
            assertThat(((Growths.Check.Invalid) c).error()).as(grow).isNotBlank();
        }
    }

    /** Strict resource mode checks a growth as publish checks a definition: an undeclared literal lease is a fault. */
    @Test
    void inStrictModeAGrownNodesUndeclaredLiteralLeaseIsAFault() {
        String grow = """
                {"node": [{"name": "fix", "operator": "noop", "leases": ["warehouse", "mart", "agent:{{ partition }}"]}]}""";
        List<String> asked = new java.util.ArrayList<>();
        DefinitionLoader strict = LOADER.withDeclaredResources(name -> {
            asked.add(name);
            return name.equals("warehouse");
        });

        Growths.Check c = strict.checkGrowth(RUN, "decide", 0, json(grow));

        assertThat(c).isInstanceOfSatisfying(Growths.Check.Invalid.class, i -> assertThat(i.error())
                .contains("UndeclaredResource", "node `fix` leases `mart`").doesNotContain("warehouse"));
        assertThat(asked).containsExactly("warehouse", "mart");
        assertThat(LOADER.checkGrowth(RUN, "decide", 0, json(grow))).isInstanceOf(Growths.Check.Valid.class);
    }
}
