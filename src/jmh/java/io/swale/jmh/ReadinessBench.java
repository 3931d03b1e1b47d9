package io.swale.jmh;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partitioning;
import io.swale.graph.TriggerRule;
import io.swale.readiness.NodeState;
import io.swale.readiness.Readiness;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Node states of a 1,000-node graph with half its nodes recorded: what the scheduler computes on every
 * event. {@code reversedChain} defines a chain last node first, the worst case of a topological order
 * that rescans the definition order; {@code layered} is a random DAG of 20 layers.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ReadinessBench {
    @Param({"layered", "reversedChain"})
    public String shape;

    @Param({"1000"})
    public int nodes;

    private Graph graph;
    private Map<String, NodeRecord> current;

    @Setup
    public void setUp() {
        List<Node> list = new ArrayList<>();
        if (shape.equals("reversedChain")) {
            for (int i = nodes - 1; i >= 0; i--) {
                list.add(task("n" + i, i == 0 ? List.of() : List.of("n" + (i - 1))));
            }
        } else {
            Random random = new Random(7);
            int perLayer = nodes / 20;
            for (int i = 0; i < nodes; i++) {
                int layer = i / perLayer;
                List<String> after = new ArrayList<>();
                if (layer > 0) {
                    for (int k = 0; k < 3; k++) {
                        String up = "n" + ((layer - 1) * perLayer + random.nextInt(perLayer));
                        if (!after.contains(up)) {
                            after.add(up);
                        }
                    }
                }
                list.add(task("n" + i, after));
            }
        }
        graph = new Graph("g", Optional.empty(), Optional.empty(), Partitioning.NONE, list);
        current = new LinkedHashMap<>();
        for (int i = 0; i < nodes / 2; i++) {
            current.put("n" + i, new NodeRecord(NodeStatus.SUCCEEDED, "g-none-n" + i + "-r0", "h", 0, 1,
                    Optional.empty(), false, Optional.empty()));
        }
    }

    @Benchmark
    public Map<String, NodeState> nodeStates() {
        return Readiness.nodeStates(graph, current);
    }

    /**
     * The order the readiness used before: rescan the nodes in definition order until none is placed,
     * O(n²) on a chain defined backwards. Alone it is a lower bound of the old {@code nodeStates}.
     */
    @Benchmark
    public List<String> previousRescanOrder() {
        Map<String, Integer> pending = new LinkedHashMap<>();
        for (Node n : graph.nodes()) {
            pending.put(n.name(), graph.upstreams(n.name()).size());
        }
        List<String> order = new ArrayList<>();
        boolean progressed = true;
        while (order.size() < pending.size() && progressed) {
            progressed = false;
            for (Node n : graph.nodes()) {
                if (pending.get(n.name()) == 0) {
                    pending.put(n.name(), -1);
                    order.add(n.name());
                    graph.downstreams(n.name()).forEach(d -> pending.merge(d, -1, Integer::sum));
                    progressed = true;
                }
            }
        }
        return order;
    }

    private static Node task(String name, List<String> after) {
        return new Node(name, Optional.empty(), List.of(), after, Optional.of(TriggerRule.ALL_SUCCEEDED), "noop",
                "default", 0, JsonNodeFactory.instance.objectNode());
    }
}
