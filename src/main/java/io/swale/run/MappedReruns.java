package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.ItemName;
import io.swale.graph.MapSpec;
import io.swale.graph.Node;
import io.swale.readiness.MappedItems;
import io.swale.readiness.Readiness;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.RunState;
import io.swale.store.InstanceStatus;
import io.swale.store.RunView;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The run-record expectations of a rerun of a mapped node or of one item (docs/dynamic-graphs.md §6). Pure:
 * the caller puts the draft with a compare-and-put.
 */
final class MappedReruns {
    private MappedReruns() {}

    /** What to do: answer at once, or put the draft run record and answer Submitted with the id. */
    sealed interface Plan {
        record Answer(RerunOutcome outcome) implements Plan {}

        record Put(GraphRunRecord draft, String answerId) implements Plan {}
    }

    /**
     * The rerun scope of a succeeded node must produce new records; a mapped node in it starts a new
     * generation of items (its floor is raised with it), past its record and past every item it has: a run
     * cancelled while its items ran leaves them past the record, or the node no record, and the new list must not
     * find them current.
     */
    static void expectScope(RunView view, Graph graph, Map<String, NodeRecord> records,
            SortedMap<String, Long> expected, String node) {
        expectScope(view, graph, records, expected, node, true);
    }

    private static void expectScope(RunView view, Graph graph, Map<String, NodeRecord> records,
            SortedMap<String, Long> expected, String node, boolean withNode) {
        for (String n : Readiness.rerunScope(graph, node)) {
            NodeRecord r = records.get(n);
            if (!withNode && n.equals(node)) {
                continue;
            }
            if (r != null) {
                expected.merge(n, r.rerun() + 1, Math::max);
            }
            if (graph.node(n).map(Node::isMapped).orElse(false)) {
                // past the record and past every item: a generation a cancel left behind (items past the record,
                // cancelled) must not be found current over the new list
                long floor = Math.max(r == null ? -1 : r.rerun(), MappedNodes.lastItemRerun(view, n).orElse(-1)) + 1;
                if (floor > 0) {
                    expected.merge(ItemName.floorKey(n), floor, Math::max);
                }
            }
        }
    }

    /**
     * Whether the node's list, read from its source's current record, reaches {@code index}: an item past it
     * keeps the record of a longer list of an earlier generation, and a source that failed has no items.
     */
    private static boolean inList(Node node, int index, Map<String, NodeRecord> current) {
        MapSpec spec = node.map().orElseThrow();
        return switch (MappedItems.source(node.name(), spec, Optional.ofNullable(current.get(spec.upstream())))) {
            case MappedItems.Source.Items items -> index < items.items().size();
            case MappedItems.Source.Invalid invalid -> false;
        };
    }

    static Plan plan(RunView view, Graph graph, Node node, Optional<Integer> index) {
        GraphRunRecord run = view.run();
        String name = node.name();
        Map<String, NodeRecord> records = RunRecords.byNode(graph, view);
        NodeRecord record = records.get(name);
        SortedMap<String, Long> expected = new TreeMap<>(run.expectedReruns());
        String answerId;
        if (index.isPresent()) {
            String itemName = MapSpec.itemName(name, index.get());
            Optional<NodeRecord> itemRecord = MappedNodes.itemRecord(view, name, index.get());
            if (itemRecord.isEmpty() || !inList(node, index.get(), Readiness.currentRecords(run, records))) {
                return new Plan.Answer(new RerunOutcome.NoRecord(itemName));
            }
            expected.merge(itemName, itemRecord.get().rerun() + 1, Math::max);
            answerId = view.key().runId(itemName, Math.max(itemRecord.get().rerun() + 1, MappedItems.floor(run, name)));
            if (record != null) {
                if (record.succeeded() && run.isCurrent(name, record)) {
                    // the node's downstreams saw the old list: they run again once the node's record is new, a
                    // mapped one over a new generation of items (the node's own items keep theirs)
                    expectScope(view, graph, records, expected, name, false);
                }
                expected.merge(name, record.rerun() + 1, Math::max);
            }
        } else {
            // a run that ended (a cancel) while a generation's items ran leaves them records past the node's, or
            // the node none: the new generation starts past every item, or they would be found current and the
            // rerun would end at once; so in a run active again whose generation in force a cancel ended. Else,
            // in an active run, the generation in force past the record (a repeated request's) is the answer; its
            // items must not move it on
            boolean ended = run.state() != RunState.ACTIVE || MappedNodes.cancelledInForce(view, name);
            long generation = Math.max(record == null ? 0 : record.rerun() + 1, ended
                    ? MappedNodes.lastItemRerun(view, name).orElse(-1) + 1
                    : Math.max(run.expectedRerun(name), MappedItems.floor(run, name)));
            if (generation == 0) {
                // no record, no item and nothing in force: the node never ran
                return new Plan.Answer(new RerunOutcome.NoRecord(name));
            }
            if (run.state() == RunState.ACTIVE && MappedNodes.items(view, name).stream()
                    .anyMatch(i -> i.status().isActive() && i.status() != InstanceStatus.CANCELLING)) {
                // its items still run (an item's rerun, the generation in force): a new generation now would run an
                // item a second time beside itself, where a plain node's rerun answers Active while its instance
                // runs. One a cancel is stopping does not hold it, as in a rerun of the cancelled run itself
                return new Plan.Answer(new RerunOutcome.Active(view.key().runId(name, generation)));
            }
            if (record != null && record.succeeded() && run.isCurrent(name, record)) {
                expectScope(view, graph, records, expected, name);
            }
            expected.merge(name, generation, Math::max);
            expected.merge(ItemName.floorKey(name), generation, Math::max);
            answerId = view.key().runId(name, generation);
        }
        GraphRunRecord draft = new GraphRunRecord(run.definition(), run.requestedAtMs(), RunState.ACTIVE,
                Optional.empty(), expected);
        if (!Readiness.isReady(graph, name, Readiness.currentRecords(draft, records))) {
            return new Plan.Answer(new RerunOutcome.NotReady(name));
        }
        if (draft.equals(run)) {
            return new Plan.Answer(new RerunOutcome.Active(answerId));
        }
        return new Plan.Put(draft, answerId);
    }

    /**
     * The record an expected-reruns entry waits for: a node's; an item's ({@code node[k]}); or for a mapped
     * node's generation floor ({@code node[]}) the node's own.
     */
    static NodeRecord expectedTarget(RunView view, Map<String, NodeRecord> records, String entry) {
        if (entry.endsWith("[]")) {
            return records.get(entry.substring(0, entry.length() - 2));
        }
        Optional<ItemName> item = ItemName.parse(entry);
        if (item.isPresent()) {
            return MappedNodes.itemRecord(view, item.get().node(), item.get().index()).orElse(null);
        }
        return records.get(entry);
    }
}
