package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.TaskStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A rerun of one item reaches the node's downstream rerun scope (docs/dynamic-graphs.md §6): a mapped node in
 * that scope maps over the node's new list, so it starts a new generation of items, as an upstream's whole-node
 * rerun would give it, instead of deriving its record again from the items of the old list.
 */
class MappedRerunScopeIT {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** list (whose output holds the array) → m, mapped over it. */
    private static final String LIST_AND_M = """
            [graph]
            name = "%s"
            [[node]]
            name = "list"
            operator = "noop"
            [[node]]
            name = "m"
            after = ["list"]
            operator = "noop"
            map = "{{ upstream.list.items }}"
            """;
    /** A root beside them, whose rerun makes a cancelled run active again. */
    private static final String OTHER = """
            [[node]]
            name = "other"
            operator = "noop"
            """;

    @Test
    void anItemRerunGivesAMappedDownstreamANewGenerationOverTheNewList() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("itemscope");
            String hash = h.publish(LIST_AND_M.formatted(g) + """
                    [[node]]
                    name = "d"
                    after = ["m"]
                    operator = "noop"
                    map = "{{ upstream.m }}"
                    """);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("list", "m[0]", "m[1]", "d[0]", "d[1]");
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.COMPLETE);

            assertThat(h.reruns.rerun(g, key.partition(), "m[1]")).isInstanceOf(RerunOutcome.Submitted.class);

            // m[1] gives another output, so m's list is new: every item of d runs again over it
            assertThat(work(h, key, hash, 10, 2)).containsExactlyInAnyOrder("m[1]", "d[0]", "d[1]");
            var view = h.runs.read(key).orElseThrow();
            assertThat(view.run().state()).isEqualTo(RunState.COMPLETE);
            NodeRecord d = RunRecords.byNode(RunGraphs.of(h.catalog, view), view).get("d");
            assertThat(d.output().orElseThrow().toString()).isEqualTo("[{\"x\":0},{\"x\":11}]");
        }
    }

    /**
     * docs/dynamic-graphs.md §6: a whole-node rerun while an item's rerun still runs answers Active, as a plain node's
     * rerun does while its instance runs. Was: a new generation, which ran that item a second time beside itself.
     */
    @Test
    void aWholeRerunWhileAnItemsRerunRunsAnswersActiveAndRunsNoItemTwice() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("itembusy");
            String hash = h.publish(LIST_AND_M.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("list", "m[0]", "m[1]");
            for (int i = 0; i < 2; i++) {
                assertThat(h.reruns.rerun(g, key.partition(), "m[0]")).isInstanceOf(RerunOutcome.Submitted.class);
                assertThat(work(h, key, hash, 0, 2)).containsExactly("m[0]");
            }
            assertThat(h.reruns.rerun(g, key.partition(), "m[1]")).isEqualTo(new RerunOutcome.Submitted(
                    key.runId("m[1]", 1)));
            var before = h.runs.read(key).orElseThrow().run();

            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Active(key.runId("m", 3)));
            assertThat(h.runs.read(key).orElseThrow().run()).isEqualTo(before);

            assertThat(work(h, key, hash, 0, 2)).containsExactly("m[1]");
            assertCompleteWithM(h, key, 3);
            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Submitted(key.runId("m", 4)));
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("m[0]", "m[1]");
        }
    }

    @Test
    void anItemPastTheListOfTheCurrentGenerationHasNoRecordToRerun() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("shrunk");
            String hash = h.publish(LIST_AND_M.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            assertThat(work(h, key, hash, 0, 3)).containsExactlyInAnyOrder("list", "m[0]", "m[1]", "m[2]");
            assertThat(h.reruns.rerun(g, key.partition(), "list")).isInstanceOf(RerunOutcome.Submitted.class);
            assertThat(work(h, key, hash, 0, 1)).containsExactlyInAnyOrder("list", "m[0]");
            var before = h.runs.read(key).orElseThrow().run();
            assertThat(before.state()).isEqualTo(RunState.COMPLETE);

            // m[2] has a record, of the generation over the list of three
            assertThat(h.reruns.rerun(g, key.partition(), "m[2]")).isEqualTo(new RerunOutcome.NoRecord("m[2]"));
            assertThat(h.runs.read(key).orElseThrow().run()).isEqualTo(before);
            assertThat(h.reruns.rerun(g, key.partition(), "m[0]")).isInstanceOf(RerunOutcome.Submitted.class);
        }
    }

    /**
     * A run cancelled while its items ran leaves them cancelled records and the node none (its record is derived
     * only in an active run): a rerun of the node starts a generation past those items, and so does a rerun of its
     * source, rather than answering NoRecord or finding the cancelled items current.
     */
    @Test
    void aMappedNodeWhoseRunWasCancelledBeforeItsRecordReruns() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("cancelledmap");
            String hash = h.publish(LIST_AND_M.formatted(g));
            RunKey key = cancelledWhileItemsWait(h, g, hash);
            var cancelled = h.runs.read(key).orElseThrow();
            assertThat(RunRecords.byNode(RunGraphs.of(h.catalog, cancelled), cancelled)).doesNotContainKey("m");
            assertThat(MappedNodes.itemRecord(cancelled, "m", 1).orElseThrow().status()).isEqualTo(NodeStatus.CANCELLED);

            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Submitted(key.runId("m", 1)));
            assertThat(h.reruns.rerun(g, key.partition(), "m")).as("the request repeated")
                    .isEqualTo(new RerunOutcome.Active(key.runId("m", 1)));
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("m[0]", "m[1]");
            assertCompleteWithM(h, key, 1);
        }
    }

    /**
     * The same with the items running when the run is cancelled: a running item is only flagged, and writes its
     * cancelled record when its worker stops it, after the rerun. The new generation starts past those instances
     * too, and their late records are not current.
     */
    @Test
    void aRerunAfterACancelWhileItemsRanStartsPastTheRunningItems() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("runningmap");
            String hash = h.publish(LIST_AND_M.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            assertThat(workOne(h, key, hash, 2)).isEqualTo("list");
            List<Long> tokens = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                tokens.add(((TaskStore.Claim.Claimed) h.tasks.claim(key, key.runId("m[" + k + "]", 0), 60_000, "w"))
                        .token());
            }
            h.dispatches.clear();
            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();
            var cancelled = h.runs.read(key).orElseThrow();
            assertThat(cancelled.instances().get(key.runId("m[0]", 0)).status().isActive()).as("flagged only").isTrue();
            assertThat(MappedNodes.itemRecord(cancelled, "m", 0)).isEmpty();

            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Submitted(key.runId("m", 1)));
            for (int k = 0; k < 2; k++) {
                String item = "m[" + k + "]";
                assertThat(h.tasks.finish(key, new RecordField(item, Optional.empty()), tokens.get(k),
                        new NodeRecord(NodeStatus.CANCELLED, key.runId(item, 0), hash, 0, h.clock.millis(),
                                Optional.empty(), false, Optional.of("cancelled")))).isEqualTo(TaskStore.Finish.OK);
                h.graphRuns.onTaskTerminated(key, item);
            }
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("m[0]", "m[1]");
            assertCompleteWithM(h, key, 1);
        }
    }

    /** The same after a whole-node rerun whose run was cancelled while its new generation ran. */
    @Test
    void aRerunAfterACancelledGenerationStartsPastItsItems() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("cancelledgen");
            String hash = h.publish(LIST_AND_M.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("list", "m[0]", "m[1]");
            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Submitted(key.runId("m", 1)));
            assertThat(workOne(h, key, hash, 2)).startsWith("m[");
            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();
            h.dispatches.clear();

            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Submitted(key.runId("m", 2)));
            assertThat(h.reruns.rerun(g, key.partition(), "m")).as("the request repeated")
                    .isEqualTo(new RerunOutcome.Active(key.runId("m", 2)));
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("m[0]", "m[1]");
            assertCompleteWithM(h, key, 2);
        }
    }

    /**
     * The same when a rerun of another node made the cancelled run active again: the generation in force was ended
     * by the cancel, so the rerun starts the next one. Was: it answered Active with the cancelled generation, and
     * the node then derived cancelled from its items.
     */
    @Test
    void aRerunInARunActiveAgainAfterACancelStartsPastTheCancelledGeneration() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("reactivated");
            String hash = h.publish(LIST_AND_M.formatted(g) + OTHER);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("list", "other", "m[0]", "m[1]");
            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Submitted(key.runId("m", 1)));
            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();
            h.dispatches.clear();
            assertThat(h.reruns.rerun(g, key.partition(), "other")).isInstanceOf(RerunOutcome.Submitted.class);
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);

            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Submitted(key.runId("m", 2)));
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("other", "m[0]", "m[1]");
            assertCompleteWithM(h, key, 2);
        }
    }

    /**
     * In a run active again after a cancel, an item's rerun still running holds a whole-node rerun back (Active), an
     * item the cancel is still stopping does not: the next generation starts past it, as in the cancelled run. Was:
     * the cancel's mark made the rerun start a generation at once, beside the item's running rerun.
     */
    @Test
    void aRerunInARunActiveAgainWaitsForAnItemsRerunNotForAnItemTheCancelIsStopping() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("stopping");
            String hash = h.publish(LIST_AND_M.formatted(g) + OTHER);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("list", "other", "m[0]", "m[1]");
            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Submitted(key.runId("m", 1)));
            long token = ((TaskStore.Claim.Claimed) h.tasks.claim(key, key.runId("m[0]", 1), 60_000, "w")).token();
            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();
            h.dispatches.clear();
            assertThat(h.reruns.rerun(g, key.partition(), "other")).isInstanceOf(RerunOutcome.Submitted.class);

            // m[1]'s own rerun is in flight: the node's rerun waits for it
            assertThat(h.reruns.rerun(g, key.partition(), "m[1]")).isEqualTo(new RerunOutcome.Submitted(
                    key.runId("m[1]", 2)));
            // the generation past every item the cancel marked and past m[1]'s rerun
            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Active(key.runId("m", 3)));
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("other", "m[1]");

            // m[0]-r1, which the cancel is stopping, does not hold it back
            assertThat(h.reruns.rerun(g, key.partition(), "m")).isInstanceOf(RerunOutcome.Submitted.class);
            assertThat(h.tasks.finish(key, new RecordField("m[0]", Optional.empty()), token, new NodeRecord(
                    NodeStatus.CANCELLED, key.runId("m[0]", 1), hash, 1, h.clock.millis(), Optional.empty(), false,
                    Optional.of("cancelled")))).isEqualTo(TaskStore.Finish.OK);
            h.graphRuns.onTaskTerminated(key, "m[0]");
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("m[0]", "m[1]");
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.COMPLETE);
        }
    }

    /**
     * A rerun of the source after a cancel that left m's rerun generation behind (its items cancelled, past m's
     * record): m's new floor lies past those items too. Was: one past m's record, which the cancelled items met, so
     * m derived cancelled over the new list without running.
     */
    @Test
    void aSourceRerunAfterACancelledGenerationRunsMsItemsAgain() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("srcaftergen");
            String hash = h.publish(LIST_AND_M.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("list", "m[0]", "m[1]");
            assertThat(h.reruns.rerun(g, key.partition(), "m")).isEqualTo(new RerunOutcome.Submitted(key.runId("m", 1)));
            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();
            h.dispatches.clear();

            assertThat(h.reruns.rerun(g, key.partition(), "list")).isInstanceOf(RerunOutcome.Submitted.class);
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("list", "m[0]", "m[1]");
            assertCompleteWithM(h, key, 2);
        }
    }

    @Test
    void aRerunOfTheSourceOfAMappedNodeCancelledBeforeItsRecordRunsItsItemsAgain() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("cancelledsrc");
            String hash = h.publish(LIST_AND_M.formatted(g));
            RunKey key = cancelledWhileItemsWait(h, g, hash);

            assertThat(h.reruns.rerun(g, key.partition(), "list")).isInstanceOf(RerunOutcome.Submitted.class);
            assertThat(work(h, key, hash, 0, 2)).containsExactlyInAnyOrder("list", "m[0]", "m[1]");
            assertCompleteWithM(h, key, 1);
        }
    }

    /** Starts the run, ends list with two items and cancels the run while they wait; answers its key. */
    private static RunKey cancelledWhileItemsWait(RunHarness h, String g, String hash) {
        RunKey key = h.key(g);
        assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
        assertThat(workOne(h, key, hash, 2)).isEqualTo("list");
        assertThat(h.cancellation.cancel(g, key.partition())).isTrue();
        h.dispatches.clear();
        return key;
    }

    /** The run complete, and m's record succeeded at {@code rerun}. */
    private static void assertCompleteWithM(RunHarness h, RunKey key, long rerun) {
        var view = h.runs.read(key).orElseThrow();
        assertThat(view.run().state()).isEqualTo(RunState.COMPLETE);
        NodeRecord m = RunRecords.byNode(RunGraphs.of(h.catalog, view), view).get("m");
        assertThat(m.status()).isEqualTo(NodeStatus.SUCCEEDED);
        assertThat(m.rerun()).isEqualTo(rerun);
    }

    /** Ends the first dispatched instance only, as {@link #work} does, and leaves the others; answers its node. */
    private static String workOne(RunHarness h, RunKey key, String hash, int listItems) {
        return finish(h, key, hash, 0, listItems, h.dispatches.removeFirst());
    }

    /**
     * Ends every dispatched instance as a worker would, its event following, until nothing is dispatched: list
     * outputs {@code listItems} items, an item of m {x: index + bump} (m[0] {x: 0}), one of d its own item;
     * answers the nodes that ran.
     */
    private static List<String> work(RunHarness h, RunKey key, String hash, int bump, int listItems) {
        List<String> ran = new ArrayList<>();
        while (!h.dispatches.isEmpty()) {
            ran.add(finish(h, key, hash, bump, listItems, h.dispatches.removeFirst()));
        }
        return ran;
    }

    private static String finish(RunHarness h, RunKey key, String hash, int bump, int listItems,
            RunHarness.Dispatch next) {
        String node = next.identity().node();
        var instance = h.runs.read(key).orElseThrow().instances().values().stream()
                .filter(i -> i.node().equals(node) && i.status().isActive()).findFirst().orElseThrow();
        TaskStore.Claim claim = h.tasks.claim(key, instance.runId(), 60_000, "w");
        long token = ((TaskStore.Claim.Claimed) claim).token();
        JsonNode output = switch (node) {
            case "list" -> {
                var items = JSON.arrayNode();
                for (int i = 0; i < listItems; i++) {
                    items.add(i);
                }
                yield JSON.objectNode().set("items", items);
            }
            case "other" -> JSON.objectNode();
            case "m[0]", "m[1]", "m[2]" -> JSON.objectNode().put("x", node.equals("m[0]") ? 0 : Integer.parseInt(
                    node.substring(2, 3)) + bump);
            default -> h.tasks.input(key, instance.runId()).orElseThrow().item().orElseThrow().value();
        };
        NodeRecord record = new NodeRecord(NodeStatus.SUCCEEDED, instance.runId(), hash, instance.rerun(),
                h.clock.millis(), Optional.of(output), false, Optional.empty());
        assertThat(h.tasks.finish(key, new RecordField(node, Optional.empty()), token, record))
                .isEqualTo(TaskStore.Finish.OK);
        h.graphRuns.onTaskTerminated(key, node);
        return node;
    }
}
