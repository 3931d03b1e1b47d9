package io.swale.run;

import io.swale.graph.MapSpec;
import io.swale.graph.Node;
import io.swale.readiness.MappedItems;
import io.swale.record.NodeRecord;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How far a mapped node's items are, for the run view and the dashboard ({@code 7/10}).
 *
 * @param total the items of the map source; -1 when the source is not (yet) a usable array
 * @param done items with a current terminal record
 * @param active items with an active instance
 * @param items each item: its index, state (a record status, an instance state, or {@code unsubmitted}) and run id
 */
public record MappedProgress(int total, int done, int succeeded, int failed, int cancelled, int active,
        List<Item> items) {

    /** One item as the views show it. */
    public record Item(int index, String state, Optional<String> runId) {}

    public static MappedProgress of(RunView view, Node node, Map<String, NodeRecord> current) {
        MapSpec spec = node.map().orElseThrow();
        int total = switch (MappedItems.source(node.name(), spec, Optional.ofNullable(current.get(spec.upstream())))) {
            case MappedItems.Source.Items items -> items.items().size();
            case MappedItems.Source.Invalid invalid -> -1;
        };
        int done = 0, succeeded = 0, failed = 0, cancelled = 0, activeCount = 0;
        List<Item> items = new ArrayList<>();
        // each item's active instance of the highest rerun, found once: a scan per item made a view of a map of
        // 65,536 items cost billions of steps
        Map<String, TaskInstance> live = new HashMap<>();
        for (TaskInstance i : MappedNodes.items(view, node.name())) {
            if (i.status().isActive()) {
                live.merge(i.node(), i, (a, b) -> a.rerun() >= b.rerun() ? a : b);
            }
        }
        for (int k = 0; k < Math.max(total, 0); k++) {
            Optional<NodeRecord> record = MappedNodes.itemRecord(view, node.name(), k);
            Optional<TaskInstance> active = Optional.ofNullable(live.get(MapSpec.itemName(node.name(), k)));
            boolean isCurrent = record.isPresent() && MappedItems.isCurrent(view.run(), node.name(), k, record.get());
            // an instance of an older generation than the current record (a cancel still stopping it while the new
            // generation ran) counts for nothing, as the node's derived record has it
            if (active.isPresent() && !(isCurrent && record.get().rerun() >= active.get().rerun())) {
                activeCount++;
                items.add(new Item(k, active.get().status().wireName(), Optional.of(active.get().runId())));
            } else if (isCurrent) {
                done++;
                switch (record.get().status()) {
                    case SUCCEEDED -> succeeded++;
                    case FAILED -> failed++;
                    case CANCELLED -> cancelled++;
                }
                items.add(new Item(k, record.get().status().wireName(), Optional.of(record.get().runId())));
            } else {
                items.add(new Item(k, "unsubmitted", Optional.empty()));
            }
        }
        return new MappedProgress(total, done, succeeded, failed, cancelled, activeCount, items);
    }
}
