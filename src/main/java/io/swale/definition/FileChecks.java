package io.swale.definition;

import io.swale.graph.Node;
import java.util.ArrayList;
import java.util.List;

/** The file faults F1–F4: things the document says that contradict each other. */
final class FileChecks {
    private FileChecks() {}

    static List<Fault> check(RawDefinition d) {
        List<Fault> faults = new ArrayList<>();
        d.catchup().ifPresent(text -> {
            try {
                Durations.parse(text);
            } catch (InvalidDurationException e) {
                faults.add(Fault.ofGraph(FaultKind.INVALID_CATCHUP, "invalid `catchup`: " + e.getMessage()));
            }
        });
        for (Node n : d.nodes()) {
            if (n.isAsset()) {
                if (!n.after().isEmpty()) {
                    faults.add(Fault.ofNode(FaultKind.ASSET_NODE_AFTER, n.name(), "node `" + n.name()
                            + "` produces an asset and has `after`; asset nodes use `consumes`"));
                }
                if (n.declaredRule().isPresent()) {
                    faults.add(Fault.ofNode(FaultKind.ASSET_NODE_TRIGGER_RULE, n.name(), "node `" + n.name()
                            + "` produces an asset and has `trigger_rule`; asset nodes always use `all_succeeded`"));
                }
            } else if (!n.consumes().isEmpty()) {
                faults.add(Fault.ofNode(FaultKind.TASK_NODE_CONSUMES, n.name(), "node `" + n.name()
                        + "` is a task node (no `produces`) and has `consumes`; task nodes use `after`"));
            }
        }
        return faults;
    }
}
