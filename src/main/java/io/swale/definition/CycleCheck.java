package io.swale.definition;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * G9: depth-first search along upstream edges, start nodes in file order and upstreams in lexical order.
 * Iterative, so a long chain of nodes cannot overflow the stack.
 */
final class CycleCheck {
    private CycleCheck() {}

    /** The first cycle found, e.g. {@code a -> b -> a}, each entry an upstream of the one before. */
    static Optional<String> find(Graph graph) {
        Set<String> finished = new HashSet<>();
        for (Node start : graph.nodes()) {
            if (finished.contains(start.name())) {
                continue;
            }
            List<String> path = new ArrayList<>();
            Set<String> onPath = new HashSet<>();
            Deque<Iterator<String>> pending = new ArrayDeque<>();
            path.add(start.name());
            onPath.add(start.name());
            pending.push(graph.upstreams(start.name()).iterator());
            while (!pending.isEmpty()) {
                Iterator<String> upstreams = pending.peek();
                if (!upstreams.hasNext()) {
                    pending.pop();
                    String done = path.removeLast();
                    onPath.remove(done);
                    finished.add(done);
                    continue;
                }
                String up = upstreams.next();
                if (onPath.contains(up)) {
                    List<String> cycle = new ArrayList<>(path.subList(path.indexOf(up), path.size()));
                    cycle.add(up);
                    return Optional.of(String.join(" -> ", cycle));
                }
                if (!finished.contains(up)) {
                    path.add(up);
                    onPath.add(up);
                    pending.push(graph.upstreams(up).iterator());
                }
            }
        }
        return Optional.empty();
    }
}
