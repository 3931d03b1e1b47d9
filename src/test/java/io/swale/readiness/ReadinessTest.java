package io.swale.readiness;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partitioning;
import io.swale.graph.TriggerRule;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/** The reference table of spec §6.3 and the scopes of §6.5. */
class ReadinessTest {
    private static final Graph GRAPH = new Graph("g", Optional.empty(), Optional.empty(), Partitioning.NONE, List.of(
            asset("a", "a_out", List.of()),
            asset("b", "b_out", List.of("a_out")),
            task("on_failure", List.of("a"), TriggerRule.ONE_FAILED),
            task("join", List.of("b", "on_failure"), TriggerRule.ALL_SUCCEEDED),
            task("report", List.of("join"), TriggerRule.ALL_DONE)));

    @Test
    void noRecords() {
        assertStates(Map.of(), Map.of(), "ready waiting waiting waiting waiting");
    }

    @Test
    void aSucceeded() {
        assertStates(Map.of("a", rec(NodeStatus.SUCCEEDED, 0)), Map.of(), "succeeded ready blocked blocked blocked");
    }

    @Test
    void aFailed() {
        assertStates(Map.of("a", rec(NodeStatus.FAILED, 0)), Map.of(), "failed blocked ready blocked blocked");
    }

    @Test
    void aCancelled() {
        assertStates(Map.of("a", rec(NodeStatus.CANCELLED, 0)), Map.of(),
                "cancelled blocked blocked blocked blocked");
    }

    @Test
    void joinFailedLetsReportRun() {
        assertStates(Map.of("a", rec(NodeStatus.FAILED, 0), "b", rec(NodeStatus.SUCCEEDED, 0),
                "on_failure", rec(NodeStatus.SUCCEEDED, 0), "join", rec(NodeStatus.FAILED, 0)), Map.of(),
                "failed succeeded succeeded failed ready");
    }

    @Test
    void expectedRerunsSupersedeRecords() {
        Map<String, NodeRecord> all = new LinkedHashMap<>();
        for (String n : List.of("a", "b", "on_failure", "join", "report")) {
            all.put(n, rec(NodeStatus.SUCCEEDED, 0));
        }
        assertStates(all, Map.of("b", 1L, "join", 1L), "succeeded ready succeeded waiting succeeded");
    }

    /**
     * A grown node after another growth's node, that growth taken out by a rerun: it keeps the name and is blocked,
     * not a root that runs at once; with the name back it waits on it again.
     */
    @Test
    void aGrownNodeWhoseAfterNameIsMissingIsBlockedUntilTheNameIsBack() {
        Graph base = new Graph("g", Optional.empty(), Optional.empty(), Partitioning.NONE, List.of(
                task("start", List.of(), TriggerRule.ALL_SUCCEEDED),
                task("decide", List.of("start"), TriggerRule.ALL_SUCCEEDED),
                task("other", List.of("start"), TriggerRule.ALL_SUCCEEDED)));
        Node x = task("x", List.of("y"), TriggerRule.ALL_DONE);
        Map<String, NodeRecord> done = Map.of("start", rec(NodeStatus.SUCCEEDED, 0),
                "decide", rec(NodeStatus.SUCCEEDED, 0), "other", rec(NodeStatus.SUCCEEDED, 0));

        Graph withoutY = base.grow("other", List.of(x), List.of());
        assertThat(withoutY.missingUpstreams("x")).containsExactly("y");
        assertThat(withoutY.upstreams("x")).isEmpty();
        assertThat(Readiness.isReady(withoutY, "x", done)).isFalse();
        assertThat(Readiness.nodeStates(withoutY, done)).containsEntry("x", NodeState.BLOCKED);
        assertThat(Readiness.settledState(Readiness.nodeStates(withoutY, done))).contains(RunState.FAILED);

        Graph withY = base.grow("decide", List.of(task("y", List.of("decide"), TriggerRule.ALL_SUCCEEDED)), List.of())
                .grow("other", List.of(x), List.of());
        assertThat(withY.missingUpstreams("x")).isEmpty();
        assertThat(withY.upstreams("x")).containsExactly("y");
        assertThat(Readiness.nodeStates(withY, done)).containsEntry("y", NodeState.READY)
                .containsEntry("x", NodeState.WAITING);
        assertThat(base.missingUpstreams("decide")).isEmpty();
    }

    @Test
    void settledStateNeedsNoOpenNode() {
        var open = Readiness.nodeStates(GRAPH, Map.of());
        assertThat(Readiness.settledState(open)).isEmpty();
        var cancelled = Readiness.nodeStates(GRAPH, Map.of("a", rec(NodeStatus.CANCELLED, 0)));
        assertThat(Readiness.settledState(cancelled)).contains(RunState.FAILED);
        Map<String, NodeRecord> all = new LinkedHashMap<>();
        GRAPH.nodes().forEach(n -> all.put(n.name(), rec(NodeStatus.SUCCEEDED, 0)));
        assertThat(Readiness.settledState(Readiness.nodeStates(GRAPH, all))).contains(RunState.COMPLETE);
    }

    @Test
    void rerunScopeStopsAtAllDoneAndOneFailed() {
        assertThat(Readiness.rerunScope(GRAPH, "a")).containsExactly("a", "b", "join");
        assertThat(Readiness.rerunScope(GRAPH, "b")).containsExactly("b", "join");
        assertThat(Readiness.rerunScope(GRAPH, "on_failure")).containsExactly("on_failure", "join");
        assertThat(Readiness.rerunScope(GRAPH, "report")).containsExactly("report");
    }

    @Test
    void oneFailedRootIsNeverReady() {
        Graph g = new Graph("g", Optional.empty(), Optional.empty(), Partitioning.NONE,
                List.of(task("x", List.of(), TriggerRule.ONE_FAILED), task("y", List.of(), TriggerRule.ALL_DONE)));
        assertThat(Readiness.nodeStates(g, Map.of())).containsExactly(
                Map.entry("x", NodeState.BLOCKED), Map.entry("y", NodeState.READY));
    }

    private static void assertStates(Map<String, NodeRecord> records, Map<String, Long> expected, String states) {
        GraphRunRecord run = new GraphRunRecord("h", 0, RunState.ACTIVE, Optional.empty(), new TreeMap<>(expected));
        Map<String, NodeRecord> current = Readiness.currentRecords(run, records);
        List<String> actual = Readiness.nodeStates(GRAPH, current).values().stream().map(NodeState::wireName).toList();
        assertThat(String.join(" ", actual)).isEqualTo(states);
    }

    private static NodeRecord rec(NodeStatus status, long rerun) {
        return new NodeRecord(status, "run", "h", rerun, 1, Optional.empty(), false, Optional.empty());
    }

    static Node asset(String name, String produces, List<String> consumes) {
        return new Node(name, Optional.of(produces), consumes, List.of(), Optional.empty(), "noop", "default", 0,
                JsonNodeFactory.instance.objectNode());
    }

    static Node task(String name, List<String> after, TriggerRule rule) {
        return new Node(name, Optional.empty(), List.of(), after, Optional.of(rule), "noop", "default", 0,
                JsonNodeFactory.instance.objectNode());
    }
}
