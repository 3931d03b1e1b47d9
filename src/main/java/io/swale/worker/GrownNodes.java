package io.swale.worker;

import io.swale.definition.Definition;
import io.swale.graph.Node;
import io.swale.task.TaskIdentity;
import java.util.Optional;

/**
 * A node that is not in its definition: one grown by a node of the instance's run (docs/dynamic-graphs.md §8),
 * found in the run's effective graph. Asked only for names the definition lacks, so runs without growth pay
 * no read.
 */
@FunctionalInterface
public interface GrownNodes {
    /**
     * Finds nothing: for tests without a run store. A lease gate given it refuses every grown node's instance,
     * as one whose growth was taken out.
     */
    GrownNodes NONE = (id, definition, node) -> Optional.empty();

    Optional<Node> find(TaskIdentity id, Definition definition, String node);
}
