package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.ItemName;
import io.swale.graph.MapSpec;
import io.swale.graph.Node;
import io.swale.readiness.MappedItems;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.store.InstanceStatus;
import io.swale.store.RecordField;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.task.EventPublisher;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * A ready mapped node (docs/dynamic-graphs.md §4–5): submits its items up to max_parallel, and once every item
 * has a current terminal record writes the node's derived record. Idempotent: items are create-only by run id
 * and the derived record is compared against the run record read.
 */
final class MappedNodes {
    private static final Logger log = LoggerFactory.getLogger(MappedNodes.class);

    /** What one step did: new item instances, and whether it wrote the node's record. */
    record Step(int submitted, boolean derived) {}

    private final TaskStore tasks;
    private final Submission submission;
    private final Clock clock;
    private final SwaleMetrics metrics;
    // where a derived record's task-terminated event goes (the scheduler's Kafka publisher once wired)
    private volatile EventPublisher events = (identity, status) -> { };

    MappedNodes(TaskStore tasks, Submission submission, Clock clock, SwaleMetrics metrics) {
        this.tasks = tasks;
        this.submission = submission;
        this.clock = clock;
        this.metrics = metrics;
    }

    void publishTo(EventPublisher publisher) {
        this.events = publisher;
    }

    /** The item's record in the view, by its field. */
    static Optional<NodeRecord> itemRecord(RunView view, String node, int index) {
        return Optional.ofNullable(view.nodeRecords().get(itemField(node, index).key()));
    }

    static RecordField itemField(String node, int index) {
        return new RecordField(MapSpec.itemName(node, index), Optional.empty());
    }

    /**
     * The highest rerun the node's items reached in the view: of their records, of their instances (a cancelled
     * running one writes its record later) and of the generation floor; empty when it has none of these.
     */
    static OptionalLong lastItemRerun(RunView view, String node) {
        long last = view.run().expectedReruns().getOrDefault(ItemName.floorKey(node), -1L);
        for (TaskInstance i : items(view, node)) {
            last = Math.max(last, i.rerun());
        }
        String prefix = new RecordField(node + "[", Optional.empty()).key();
        for (Map.Entry<String, NodeRecord> e : view.nodeRecords().entrySet()) {
            // the key's index must parse: a name that only starts alike, or {@code node[]}, is no item
            if (e.getKey().startsWith(prefix)
                    && ItemName.parse(node + e.getKey().substring(prefix.length() - 1)).isPresent()) {
                last = Math.max(last, e.getValue().rerun());
            }
        }
        return last < 0 ? OptionalLong.empty() : OptionalLong.of(last);
    }

    /** Whether a cancel reached an item of the node's generation in force (at or past its floor). */
    static boolean cancelledInForce(RunView view, String node) {
        long floor = MappedItems.floor(view.run(), node);
        return items(view, node).stream().anyMatch(i -> i.rerun() >= floor
                && (i.status() == InstanceStatus.CANCELLED || i.status() == InstanceStatus.CANCELLING));
    }

    /** The instances of the node's items in the view. */
    static List<TaskInstance> items(RunView view, String node) {
        return view.instances().values().stream()
                .filter(i -> ItemName.parse(i.node()).map(n -> n.node().equals(node)).orElse(false)).toList();
    }

    /** Submits what may run of a ready mapped node, or writes its record once every item is done. */
    Step advance(RunView view, Graph graph, Node node, Map<String, NodeRecord> current, OptionalLong readyUs) {
        GraphRunRecord run = view.run();
        MapSpec spec = node.map().orElseThrow();
        String idPrefix = view.key().runId(node.name(), 0);
        idPrefix = idPrefix.substring(0, idPrefix.length() - 1);
        switch (MappedItems.source(node.name(), spec, Optional.ofNullable(current.get(spec.upstream())))) {
            case MappedItems.Source.Invalid invalid -> {
                return new Step(0, write(view, node, MappedItems.invalid(run, node.name(), idPrefix, invalid.error(),
                        clock.millis())));
            }
            case MappedItems.Source.Items items when items.items().isEmpty() -> {
                return new Step(0, write(view, node, MappedItems.empty(run, node.name(), idPrefix, clock.millis())));
            }
            case MappedItems.Source.Items items -> {
                return expand(view, graph, node, spec, items.items(), current, readyUs, idPrefix);
            }
        }
    }

    private Step expand(RunView view, Graph graph, Node node, MapSpec spec, List<JsonNode> items,
            Map<String, NodeRecord> current, OptionalLong readyUs, String idPrefix) {
        GraphRunRecord run = view.run();
        long active = items(view, node.name()).stream().filter(i -> i.status().isActive()).count();
        List<NodeRecord> done = new ArrayList<>();
        List<Submission.ItemRequest> todo = new ArrayList<>();
        for (int k = 0; k < items.size(); k++) {
            Optional<NodeRecord> record = itemRecord(view, node.name(), k);
            if (record.isPresent() && MappedItems.isCurrent(run, node.name(), k, record.get())) {
                done.add(record.get());
                continue;
            }
            long rerun = MappedItems.nextRerun(run, node.name(), k, record);
            TaskInstance instance = view.instances().get(view.key().runId(MapSpec.itemName(node.name(), k), rerun));
            if (instance == null && todo.size() < spec.maxParallel() - active) {
                todo.add(new Submission.ItemRequest(k, items.get(k), rerun));
            } else if (instance != null && instance.status() == InstanceStatus.PENDING && submission.anyInDoubt()) {
                // an item whose submission failed, perhaps after Redis created it: it is not submitted again (it
                // exists), so no `exists` answer would dispatch it
                submission.dispatchIfInDoubt(node.pool(), new TaskIdentity(view.key().graph(), view.key().partition(),
                        instance.node(), Optional.empty(), run.definition(), rerun));
            }
        }
        if (done.size() == items.size()) {
            return new Step(0, write(view, node, MappedItems.derive(run, node.name(), idPrefix, done)));
        }
        int submitted = submission.submitItems(graph, run.definition(), view.key().partition(), node, todo, current,
                readyUs);
        return new Step(submitted, false);
    }

    private boolean write(RunView view, Node node, NodeRecord record) {
        TaskStore.Derive outcome = tasks.derive(view.key(), view.version(), RunRecords.field(node), record);
        if (outcome == TaskStore.Derive.WRITTEN) {
            metrics.taskTerminated(node.pool(), record.status().wireName());
            log.info("mapped node derived graph={} partition={} node={} status={} rerun={}", view.key().graph(),
                    view.key().partition(), node.name(), record.status().wireName(), record.rerun());
            // the node ended as any other does: its event advances the downstreams on whichever replica reads it
            // (not only through this call's advance or the reconciler) and reaches every event consumer. A crash
            // before it is healed by the reconciler, which reads the record
            try {
                events.taskTerminated(new TaskIdentity(view.key().graph(), view.key().partition(),
                        node.name(), Optional.empty(), view.run().definition(), record.rerun()), record.status());
            } catch (RuntimeException e) {
                log.warn("derived node event not sent graph={} partition={} node={} error={}", view.key().graph(),
                        view.key().partition(), node.name(), e.toString());
            }
        }
        return outcome == TaskStore.Derive.WRITTEN;
    }
}
