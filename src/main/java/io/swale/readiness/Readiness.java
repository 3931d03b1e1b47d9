package io.swale.readiness;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.TriggerRule;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Which nodes of a graph run may run now, and whether the run has settled (spec §6). Pure functions. */
public final class Readiness {
    private Readiness() {}

    /** Records at or above their node's expected rerun count; superseded records are left out. */
    public static Map<String, NodeRecord> currentRecords(GraphRunRecord run, Map<String, NodeRecord> records) {
        Map<String, NodeRecord> current = new LinkedHashMap<>();
        records.forEach((node, record) -> {
            if (run.isCurrent(node, record)) {
                current.put(node, record);
            }
        });
        return current;
    }

    /** Whether the node's trigger rule is satisfied by the current records of its upstreams. */
    public static boolean isReady(Graph graph, String node, Map<String, NodeRecord> current) {
        if (!graph.missingUpstreams(node).isEmpty()) {
            return false;
        }
        Collection<String> ups = graph.upstreams(node);
        return switch (graph.triggerRule(node)) {
            case ALL_SUCCEEDED -> ups.stream().allMatch(u -> hasStatus(current, u, NodeStatus.SUCCEEDED));
            case ALL_DONE -> ups.stream().allMatch(current::containsKey);
            case ONE_FAILED -> ups.stream().anyMatch(u -> hasStatus(current, u, NodeStatus.FAILED));
        };
    }

    /** The state of every node, in definition order. */
    public static Map<String, NodeState> nodeStates(Graph graph, Map<String, NodeRecord> current) {
        Map<String, NodeState> states = new LinkedHashMap<>();
        for (String name : graph.topologicalOrder()) {
            states.put(name, stateOf(graph, name, current, states));
        }
        Map<String, NodeState> inDefinitionOrder = new LinkedHashMap<>();
        for (Node n : graph.nodes()) {
            inDefinitionOrder.put(n.name(), states.get(n.name()));
        }
        return inDefinitionOrder;
    }

    /** The final state of the run, or empty while any node is ready or waiting. */
    public static Optional<RunState> settledState(Map<String, NodeState> states) {
        if (states.values().stream().anyMatch(NodeState::isOpen)) {
            return Optional.empty();
        }
        boolean allSucceeded = states.values().stream().allMatch(s -> s == NodeState.SUCCEEDED);
        return Optional.of(allSucceeded ? RunState.COMPLETE : RunState.FAILED);
    }

    /**
     * The node plus every node reachable downstream through all_succeeded nodes, in definition order.
     * The walk stops at all_done and one_failed nodes, which keep their records.
     */
    public static List<String> rerunScope(Graph graph, String node) {
        Set<String> reached = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        reached.add(node);
        todo.add(node);
        while (!todo.isEmpty()) {
            for (String d : graph.downstreams(todo.poll())) {
                if (graph.triggerRule(d) == TriggerRule.ALL_SUCCEEDED && reached.add(d)) {
                    todo.add(d);
                }
            }
        }
        List<String> scope = new ArrayList<>();
        for (Node n : graph.nodes()) {
            if (reached.contains(n.name())) {
                scope.add(n.name());
            }
        }
        return scope;
    }

    private static NodeState stateOf(Graph graph, String name, Map<String, NodeRecord> current,
            Map<String, NodeState> known) {
        NodeRecord record = current.get(name);
        if (record != null) {
            return NodeState.of(record.status());
        }
        if (!graph.missingUpstreams(name).isEmpty()) {
            // it may come back with the growth that declares it, but until then nothing of the run waits on it: a
            // run whose growth stays out settles rather than waiting for ever
            return NodeState.BLOCKED;
        }
        if (isReady(graph, name, current)) {
            return NodeState.READY;
        }
        Collection<String> ups = graph.upstreams(name);
        boolean canStillRun = switch (graph.triggerRule(name)) {
            case ALL_SUCCEEDED -> ups.stream().allMatch(u -> {
                NodeState s = known.get(u);
                return s == NodeState.SUCCEEDED || s.isOpen();
            });
            case ALL_DONE -> ups.stream().noneMatch(u -> known.get(u) == NodeState.BLOCKED);
            case ONE_FAILED -> ups.stream().anyMatch(u -> known.get(u).isOpen());
        };
        return canStillRun ? NodeState.WAITING : NodeState.BLOCKED;
    }

    private static boolean hasStatus(Map<String, NodeRecord> current, String node, NodeStatus status) {
        NodeRecord r = current.get(node);
        return r != null && r.status() == status;
    }
}
