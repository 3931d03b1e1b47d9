package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Mapped nodes under several scheduler replicas, redelivered events and reruns racing the derived record, on a
 * real redis-server (docs/dynamic-graphs.md §4–6). Kafka is the harness's recording fake: what matters here is
 * what Redis lets through.
 */
class MappedRacesIT {
    private static final int ITEMS = 40;
    private static final int MAX_PARALLEL = 5;

    /** list (a root whose output holds the array) → each (mapped) → after. */
    private static String publish(RunHarness h, String graph) {
        return h.publish("""
                [graph]
                name = "%s"
                [[node]]
                name = "list"
                operator = "noop"
                [[node]]
                name = "each"
                after = ["list"]
                operator = "noop"
                map = "{{ upstream.list.items }}"
                max_parallel = %d
                [[node]]
                name = "after"
                after = ["each"]
                operator = "noop"
                """.formatted(graph, MAX_PARALLEL));
    }

    /** Claims and ends one pending instance with an output. */
    private static void finish(RunHarness h, RunKey key, String runId, String node, long rerun, String hash,
            NodeStatus status, Optional<tools.jackson.databind.JsonNode> output) {
        TaskStore.Claim claim = h.tasks.claim(key, runId, 60_000, "w");
        assertThat(claim).isInstanceOf(TaskStore.Claim.Claimed.class);
        long token = ((TaskStore.Claim.Claimed) claim).token();
        NodeRecord record = new NodeRecord(status, runId, hash, rerun, h.clock.millis(), output, false,
                status == NodeStatus.FAILED ? Optional.of("boom") : Optional.empty());
        assertThat(h.tasks.finish(key, new RecordField(node, Optional.empty()), token, record))
                .isEqualTo(TaskStore.Finish.OK);
    }

    private static RunKey startWithList(RunHarness h, String graph, String hash, int items) {
        RunKey key = h.key(graph);
        assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
        var array = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < items; i++) {
            array.add(i);
        }
        var output = JsonNodeFactory.instance.objectNode();
        output.set("items", array);
        finish(h, key, key.runId("list", 0), "list", 0, hash, NodeStatus.SUCCEEDED, Optional.of(output));
        return key;
    }

    private static List<TaskInstance> activeItems(RunHarness h, RunKey key) {
        return h.runs.read(key).orElseThrow().instances().values().stream()
                .filter(i -> i.node().startsWith("each[") && i.status().isActive()).toList();
    }

    @Test
    void threeReplicasAndRedeliveredEventsNeverPutMoreThanMaxParallelItemsInFlightNorSubmitAnItemTwice()
            throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("mapreplicas");
            String hash = publish(h, g);
            RunKey key = startWithList(h, g, hash, ITEMS);
            // three replicas of the scheduler on the same stores, as three service processes would be
            List<GraphRuns> replicas = List.of(h.graphRuns,
                    new GraphRuns(h.catalog, h.definitionStore, h.runs, h.tasks, h.submission, h.clock, h.metrics),
                    new GraphRuns(h.catalog, h.definitionStore, h.runs, h.tasks, h.submission, h.clock, h.metrics));
            AtomicBoolean over = new AtomicBoolean();
            AtomicInteger mostActive = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> work = new ArrayList<>();
                for (GraphRuns replica : replicas) {
                    // each replica handles the "list ended" event again and again: redelivery, and a reconciler
                    work.add(pool.submit(() -> {
                        while (!over.get()) {
                            replica.onTaskTerminated(key, "list");
                            h.runs.read(key).ifPresent(replica::advanceAll);
                        }
                        return null;
                    }));
                }
                // the worker: ends pending items one by one, each followed by its event to one replica
                work.add(pool.submit(() -> {
                    int turn = 0;
                    while (h.runs.read(key).orElseThrow().run().state() == RunState.ACTIVE) {
                        List<TaskInstance> active = activeItems(h, key);
                        mostActive.accumulateAndGet(active.size(), Math::max);
                        for (TaskInstance i : active) {
                            finish(h, key, i.runId(), i.node(), i.rerun(), hash, NodeStatus.SUCCEEDED, Optional.empty());
                            replicas.get(turn++ % replicas.size()).onTaskTerminated(key, i.node());
                        }
                        if (active.isEmpty()) {
                            // "after" is the last node: end it as a worker would
                            RunView v = h.runs.read(key).orElseThrow();
                            TaskInstance last = v.instances().get(key.runId("after", 0));
                            if (last != null && last.status().isActive()) {
                                finish(h, key, last.runId(), "after", 0, hash, NodeStatus.SUCCEEDED, Optional.empty());
                                h.graphRuns.onTaskTerminated(key, "after");
                            }
                        }
                    }
                    over.set(true);
                    return null;
                }));
                for (Future<?> f : work) {
                    f.get(120, java.util.concurrent.TimeUnit.SECONDS);
                }
            } finally {
                over.set(true);
                pool.shutdownNow();
            }
            RunView done = h.runs.read(key).orElseThrow();
            assertThat(done.run().state()).isEqualTo(RunState.COMPLETE);
            assertThat(mostActive.get()).isBetween(1, MAX_PARALLEL);
            // every item ran exactly once: one instance per item, one dispatch per instance
            Map<String, Integer> dispatched = new ConcurrentHashMap<>();
            h.dispatches.stream().filter(d -> d.identity().node().startsWith("each["))
                    .forEach(d -> dispatched.merge(d.identity().runId(), 1, Integer::sum));
            assertThat(dispatched).hasSize(ITEMS);
            assertThat(dispatched.values()).containsOnly(1);
            NodeRecord each = done.nodeRecords().get("t:each");
            assertThat(each.status()).isEqualTo(NodeStatus.SUCCEEDED);
            assertThat(each.output().orElseThrow().size()).isEqualTo(ITEMS);
        }
    }

    @Test
    void anItemRerunCommittedBetweenTheReadAndTheDerivedRecordWinsAndTheRecordIsDerivedAgain() throws Exception {
        AtomicReference<Runnable> atDerive = new AtomicReference<>(() -> { });
        try (RunHarness h = new RunHarness(r -> r, t -> RunHarness.before(TaskStore.class, t, (method, args) -> {
            if (method.equals("derive")) {
                atDerive.getAndSet(() -> { }).run();
            }
        }))) {
            String g = RunHarness.graphName("mapderive");
            String hash = publish(h, g);
            RunKey key = startWithList(h, g, hash, 3);
            h.graphRuns.onTaskTerminated(key, "list");
            finish(h, key, key.runId("each[0]", 0), "each[0]", 0, hash, NodeStatus.SUCCEEDED, Optional.empty());
            finish(h, key, key.runId("each[1]", 0), "each[1]", 0, hash, NodeStatus.FAILED, Optional.empty());
            finish(h, key, key.runId("each[2]", 0), "each[2]", 0, hash, NodeStatus.SUCCEEDED, Optional.empty());
            // every item is done: the event's advance derives a failed record, but the rerun of item 1 lands first
            AtomicReference<RerunOutcome> rerun = new AtomicReference<>();
            atDerive.set(() -> rerun.set(h.reruns.rerun(g, key.partition(), "each[1]")));

            h.graphRuns.onTaskTerminated(key, "each[1]");

            assertThat(rerun.get()).isEqualTo(new RerunOutcome.Submitted(key.runId("each[1]", 1)));
            RunView after = h.runs.read(key).orElseThrow();
            assertThat(after.nodeRecords()).doesNotContainKey("t:each");
            assertThat(after.instances().get(key.runId("each[1]", 1)).status().isActive()).isTrue();

            finish(h, key, key.runId("each[1]", 1), "each[1]", 1, hash, NodeStatus.SUCCEEDED, Optional.empty());
            h.graphRuns.onTaskTerminated(key, "each[1]");
            NodeRecord each = h.runs.read(key).orElseThrow().nodeRecords().get("t:each");
            assertThat(each.status()).isEqualTo(NodeStatus.SUCCEEDED);
            assertThat(each.rerun()).isEqualTo(1);
            assertThat(h.runs.read(key).orElseThrow().instances()).containsKey(key.runId("after", 0));
        }
    }

    @Test
    void twoReplicasDerivingAtOnceWriteTheRecordOnceAndAWholeRerunStartsANewGenerationOfEveryItem()
            throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("mapgen");
            String hash = publish(h, g);
            RunKey key = startWithList(h, g, hash, 2);
            h.graphRuns.onTaskTerminated(key, "list");
            finish(h, key, key.runId("each[0]", 0), "each[0]", 0, hash, NodeStatus.SUCCEEDED, Optional.empty());
            finish(h, key, key.runId("each[1]", 0), "each[1]", 0, hash, NodeStatus.SUCCEEDED, Optional.empty());
            RunView both = h.runs.read(key).orElseThrow();
            GraphRuns other = new GraphRuns(h.catalog, h.definitionStore, h.runs, h.tasks, h.submission, h.clock,
                    h.metrics);

            // both replicas read the same view; the second derive finds the record written (same bytes, kept)
            h.graphRuns.advance(both, List.of("each"));
            String written = h.runs.read(key).orElseThrow().nodeRecords().get("t:each").toString();
            other.advance(both, List.of("each"));
            assertThat(h.runs.read(key).orElseThrow().nodeRecords().get("t:each").toString()).isEqualTo(written);
            assertThat(h.dispatches.stream().filter(d -> d.identity().node().equals("after"))).hasSize(1);

            finish(h, key, key.runId("after", 0), "after", 0, hash, NodeStatus.SUCCEEDED, Optional.empty());
            h.graphRuns.onTaskTerminated(key, "after");
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.COMPLETE);

            RerunOutcome whole = h.reruns.rerun(g, key.partition(), "each");

            assertThat(whole).isEqualTo(new RerunOutcome.Submitted(key.runId("each", 1)));
            RunView rerun = h.runs.read(key).orElseThrow();
            assertThat(rerun.run().expectedReruns()).containsEntry("each", 1L).containsEntry("each[]", 1L)
                    .containsEntry("after", 1L);
            assertThat(rerun.instances()).containsKeys(key.runId("each[0]", 1), key.runId("each[1]", 1));
            assertThat(h.reruns.rerun(g, key.partition(), "each")).isInstanceOf(RerunOutcome.Active.class);
        }
    }

    @Test
    void theSubmitScriptRefusesItemsBeyondMaxParallelWhateverTheCallerRead() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("mapgate");
            String hash = publish(h, g);
            RunKey key = startWithList(h, g, hash, 20);
            h.graphRuns.onTaskTerminated(key, "list");
            assertThat(activeItems(h, key)).hasSize(MAX_PARALLEL);
            var graph = h.catalog.get(hash).graph();
            var node = graph.node("each").orElseThrow();
            var current = RunRecords.byNode(graph, h.runs.read(key).orElseThrow());
            List<Submission.ItemRequest> next = new ArrayList<>();
            for (int k = MAX_PARALLEL; k < 2 * MAX_PARALLEL; k++) {
                next.add(new Submission.ItemRequest(k, JsonNodeFactory.instance.numberNode(k), 0));
            }

            // a caller whose view is stale (it believes no item runs) asks for five more: none is created
            assertThat(h.submission.submitItems(graph, hash, key.partition(), node, next, current,
                    java.util.OptionalLong.empty())).isZero();
            assertThat(activeItems(h, key)).hasSize(MAX_PARALLEL);

            finish(h, key, key.runId("each[0]", 0), "each[0]", 0, hash, NodeStatus.SUCCEEDED, Optional.empty());
            assertThat(h.submission.submitItems(graph, hash, key.partition(), node, next, current,
                    java.util.OptionalLong.empty())).isEqualTo(1);
            assertThat(activeItems(h, key)).hasSize(MAX_PARALLEL)
                    .anyMatch(i -> i.runId().equals(key.runId("each[" + MAX_PARALLEL + "]", 0)));
        }
    }
}
