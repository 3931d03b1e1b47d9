package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.definition.Definition;
import io.swale.definition.Growths;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.graph.Partitioning;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.store.RunKey;
import io.swale.store.RunVersion;
import io.swale.store.RunView;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/** A run's effective graph (docs/dynamic-graphs.md §8.5, §8.7): which stored growths count, and in what order. */
class RunGraphsTest {
    private static final RunKey KEY = new RunKey("g", Partition.of("p"));
    private static final Definition DEFINITION = new Definition("h", "", new Graph("g", Optional.empty(),
            Optional.empty(), Partitioning.NONE, List.of(node("decide", List.of()), node("report", List.of("decide")))));

    private static Node node(String name, List<String> after) {
        return new Node(name, Optional.empty(), List.of(), after, Optional.empty(), "noop", "default", 0,
                JsonNodeFactory.instance.objectNode());
    }

    private static String growth(String by, long rerun, String... names) {
        StringBuilder nodes = new StringBuilder();
        for (String n : names) {
            nodes.append(nodes.isEmpty() ? "" : ",").append("{\"name\":\"").append(n).append("\",\"operator\":\"noop\"}");
        }
        return "{\"by\":\"" + by + "\",\"rerun\":" + rerun + ",\"node\":[" + nodes + "],\"edges_to\":"
                + (by.equals("decide") ? "[\"report\"]" : "[]") + "}";
    }

    private static NodeRecord record(String node, NodeStatus status, long rerun, long at) {
        return new NodeRecord(status, KEY.runId(node, rerun), "h", rerun, at, Optional.empty(), false, Optional.empty());
    }

    private static RunView view(Map<String, NodeRecord> records, Map<String, String> growths, Map<String, Long> expected) {
        GraphRunRecord run = GraphRunRecord.started("h", 1).withExpectedReruns(new TreeMap<>(expected));
        return new RunView(KEY, new RunVersion("v"), run, records, Map.of(), growths);
    }

    @Test
    void aCurrentSucceededRecordsGrowthIsPartOfTheGraph() {
        Graph g = RunGraphs.of(DEFINITION, view(Map.of("t:decide", record("decide", NodeStatus.SUCCEEDED, 0, 5)),
                Map.of("decide", growth("decide", 0, "fix", "check")), Map.of()));
        assertThat(g.nodes()).extracting(Node::name).containsExactly("decide", "report", "fix", "check");
        assertThat(g.upstreams("report")).containsExactly("check", "decide", "fix");
        assertThat(g.grownBy("fix")).contains("decide");
        assertThat(RunGraphs.without(DEFINITION, view(Map.of("t:decide", record("decide", NodeStatus.SUCCEEDED, 0, 5)),
                Map.of("decide", growth("decide", 0, "fix")), Map.of()), "decide").nodes()).hasSize(2);
    }

    @Test
    void aRerunExpectationOrAnotherRecordTakesTheGrowthOut() {
        Map<String, String> growths = Map.of("decide", growth("decide", 0, "fix"));
        // the rerun's expectation is put: the record is no longer current
        assertThat(RunGraphs.of(DEFINITION, view(Map.of("t:decide", record("decide", NodeStatus.SUCCEEDED, 0, 5)),
                growths, Map.of("decide", 1L))).hasNode("fix")).isFalse();
        // a later record (cancelled by the scheduler, say) is not the one the growth was stored with
        assertThat(RunGraphs.of(DEFINITION, view(Map.of("t:decide", record("decide", NodeStatus.SUCCEEDED, 1, 5)),
                growths, Map.of())).hasNode("fix")).isFalse();
        assertThat(RunGraphs.of(DEFINITION, view(Map.of("t:decide", record("decide", NodeStatus.FAILED, 0, 5)),
                growths, Map.of())).hasNode("fix")).isFalse();
        assertThat(RunGraphs.of(DEFINITION, view(Map.of(), growths, Map.of())).hasNode("fix")).isFalse();
    }

    @Test
    void aNestedGrowthAttachesAfterItsGrowersAndGoesWithIt() {
        Map<String, NodeRecord> records = new HashMap<>();
        records.put("t:decide", record("decide", NodeStatus.SUCCEEDED, 0, 9));
        // the nested growth's record is older by the clock: it still attaches after the growth that added its node
        records.put("t:fix", record("fix", NodeStatus.SUCCEEDED, 0, 2));
        Map<String, String> growths = Map.of("decide", growth("decide", 0, "fix"), "fix", growth("fix", 0, "deeper"));
        Graph g = RunGraphs.of(DEFINITION, view(records, growths, Map.of()));
        assertThat(g.nodes()).extracting(Node::name).containsExactly("decide", "report", "fix", "deeper");
        assertThat(g.upstreams("deeper")).containsExactly("fix");
        assertThat(g.growthDepth("deeper")).isEqualTo(2);
        Graph rerun = RunGraphs.of(DEFINITION, view(records, growths, Map.of("decide", 1L)));
        assertThat(rerun.hasNode("fix")).isFalse();
        assertThat(rerun.hasNode("deeper")).isFalse();
        assertThat(Growths.read(growths.get("fix")).by()).isEqualTo("fix");
    }
}
