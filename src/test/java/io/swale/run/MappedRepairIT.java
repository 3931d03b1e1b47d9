package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.InstanceStatus;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunView;
import io.swale.store.TaskStore;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A mapped node through the repair paths, on a real redis-server: a worker that dies holding an item (its
 * lease is reaped and the item runs again), lost events (the reconciler alone finishes the node), a cancel
 * (every active item ends cancelled), and an upstream rerun that brings a new array (a new generation).
 */
class MappedRepairIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();

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
                max_parallel = 2
                retries = 1
                [[node]]
                name = "after"
                after = ["each"]
                operator = "noop"
                """.formatted(graph));
    }

    private static void finish(RunHarness h, RunKey key, String node, long rerun, String hash, String output) {
        String runId = key.runId(node, rerun);
        TaskStore.Claim claim = h.tasks.claim(key, runId, 60_000, "w");
        assertThat(claim).isInstanceOf(TaskStore.Claim.Claimed.class);
        NodeRecord record = new NodeRecord(NodeStatus.SUCCEEDED, runId, hash, rerun, h.clock.millis(),
                Optional.ofNullable(output).map(JSON::readTree), false, Optional.empty());
        assertThat(h.tasks.finish(key, new RecordField(node, Optional.empty()),
                ((TaskStore.Claim.Claimed) claim).token(), record)).isEqualTo(TaskStore.Finish.OK);
    }

    private static RunView view(RunHarness h, RunKey key) {
        return h.runs.read(key).orElseThrow();
    }

    @Test
    void withEveryEventLostAndAWorkerKilledHoldingAnItemTheReconcilerAloneFinishesTheNode() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("maprepair");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            h.graphRuns.startRun(hash, key.partition());
            Reconciler reconciler = h.reconciler(60_000);
            finish(h, key, "list", 0, hash, "{\"items\": [\"a\", \"b\", \"c\"]}");
            // no event reaches the scheduler from here on: only reconciler passes
            reconciler.pass();
            assertThat(view(h, key).instances()).containsKeys(key.runId("each[0]", 0), key.runId("each[1]", 0))
                    .doesNotContainKey(key.runId("each[2]", 0));

            // the worker holding item 0 dies (kill -9): a 1 ms lease that nothing extends
            TaskStore.Claim lost = h.tasks.claim(key, key.runId("each[0]", 0), 1, "dead-worker");
            assertThat(lost).isInstanceOf(TaskStore.Claim.Claimed.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> h.tasks.serverTimeMs()
                    > view(h, key).instances().get(key.runId("each[0]", 0)).leaseUntilMs().orElseThrow());
            reconciler.pass();
            assertThat(view(h, key).instances().get(key.runId("each[0]", 0)).status()).isEqualTo(InstanceStatus.PENDING);

            finish(h, key, "each[0]", 0, hash, "1");
            finish(h, key, "each[1]", 0, hash, "2");
            reconciler.pass();
            finish(h, key, "each[2]", 0, hash, "3");
            reconciler.pass();
            NodeRecord each = view(h, key).nodeRecords().get("t:each");
            assertThat(each.output().orElseThrow().toString()).isEqualTo("[1,2,3]");
            assertThat(view(h, key).instances()).containsKey(key.runId("after", 0));
            finish(h, key, "after", 0, hash, null);
            reconciler.pass();
            assertThat(view(h, key).run().state()).isEqualTo(RunState.COMPLETE);
            // the item whose worker died ran once more, not a second instance
            assertThat(h.dispatches.stream().filter(d -> d.identity().runId().equals(key.runId("each[0]", 0))))
                    .hasSize(2);
        }
    }

    @Test
    void aCancelEndsEveryActiveItemAndNothingMoreIsSubmitted() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("mapcancel");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            h.graphRuns.startRun(hash, key.partition());
            finish(h, key, "list", 0, hash, "{\"items\": [1, 2, 3, 4]}");
            h.graphRuns.onTaskTerminated(key, "list");
            h.tasks.claim(key, key.runId("each[1]", 0), 60_000, "w");

            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();

            RunView v = view(h, key);
            assertThat(v.instances().get(key.runId("each[0]", 0)).status()).isEqualTo(InstanceStatus.CANCELLED);
            assertThat(v.nodeRecords().get("t:each[0]").status()).isEqualTo(NodeStatus.CANCELLED);
            // the running one is flagged; its worker ends it cancelled
            assertThat(v.instances().get(key.runId("each[1]", 0)).status()).isEqualTo(InstanceStatus.CANCELLING);
            h.graphRuns.onTaskTerminated(key, "each[0]");
            h.reconciler(60_000).pass();
            assertThat(view(h, key).instances()).doesNotContainKey(key.runId("each[2]", 0));
        }
    }

    @Test
    void anUpstreamRerunWithANewArrayStartsANewGenerationOfItemsAndTheNodeRecordFollows() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("mapscope");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            h.graphRuns.startRun(hash, key.partition());
            finish(h, key, "list", 0, hash, "{\"items\": [1, 2]}");
            h.graphRuns.onTaskTerminated(key, "list");
            finish(h, key, "each[0]", 0, hash, "10");
            finish(h, key, "each[1]", 0, hash, "20");
            h.graphRuns.onTaskTerminated(key, "each[1]");
            finish(h, key, "after", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "after");
            assertThat(view(h, key).run().state()).isEqualTo(RunState.COMPLETE);

            assertThat(h.reruns.rerun(g, key.partition(), "list"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("list", 1)));
            assertThat(view(h, key).run().expectedReruns()).containsEntry("each[]", 1L).containsEntry("each", 1L);
            finish(h, key, "list", 1, hash, "{\"items\": [7, 8, 9]}");
            h.graphRuns.onTaskTerminated(key, "list");
            // max_parallel 2: items 0 and 1 of the new generation, then 2
            assertThat(view(h, key).instances()).containsKeys(key.runId("each[0]", 1), key.runId("each[1]", 1))
                    .doesNotContainKey(key.runId("each[2]", 1));
            finish(h, key, "each[0]", 1, hash, "70");
            h.graphRuns.onTaskTerminated(key, "each[0]");
            finish(h, key, "each[1]", 1, hash, "80");
            finish(h, key, "each[2]", 1, hash, "90");
            h.graphRuns.onTaskTerminated(key, "each[2]");

            JsonNode output = view(h, key).nodeRecords().get("t:each").output().orElseThrow();
            assertThat(output.toString()).isEqualTo("[70,80,90]");
            assertThat(view(h, key).nodeRecords().get("t:each").rerun()).isEqualTo(1);
            assertThat(view(h, key).instances()).containsKey(key.runId("after", 1));
        }
    }

    @Test
    void aMappedRerunCommitsItsRequestRecordWithTheRunRecordChange() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("mapreq");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            h.graphRuns.startRun(hash, key.partition());
            finish(h, key, "list", 0, hash, "{\"items\": [1, 2]}");
            h.graphRuns.onTaskTerminated(key, "list");
            finish(h, key, "each[0]", 0, hash, "10");
            finish(h, key, "each[1]", 0, hash, "20");
            h.graphRuns.onTaskTerminated(key, "each[1]");
            finish(h, key, "after", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "after");
            assertThat(view(h, key).run().state()).isEqualTo(RunState.COMPLETE);
            var requests = new io.swale.store.redis.RedisRequestStore(h.pool, h.prefix);

            // a put that loses its compare writes no request record either
            var stale = view(h, key);
            h.reruns.rerun(g, key.partition(), "each[0]");
            assertThat(h.tasks.compareAndPutRun(key, stale.version(), stale.run(), write("req-lost", g, key, "each[1]",
                    "x"))).isFalse();
            assertThat(requests.get("req-lost")).isEmpty();

            RerunOutcome outcome = h.reruns.rerun(g, key.partition(), "each[1]",
                    runId -> Optional.of(write("req-map", g, key, "each[1]", runId)));

            String answer = key.runId("each[1]", 1);
            assertThat(outcome).isEqualTo(new RerunOutcome.Submitted(answer));
            // written by the same script as the expectation: a crash after it cannot leave a retry of this
            // request to find the rerun "already active" with no record of its own answer
            assertThat(requests.get("req-map")).map(io.swale.record.RequestRecord::outcome)
                    .contains(new io.swale.record.RequestOutcome.Rerun(answer));
            assertThat(view(h, key).run().expectedReruns()).containsEntry("each[1]", 1L);
            // another request for the same rerun changes nothing: it is answered active and the store writes no record
            assertThat(h.reruns.rerun(g, key.partition(), "each[1]",
                    runId -> Optional.of(write("req-again", g, key, "each[1]", runId))))
                    .isEqualTo(new RerunOutcome.Active(answer));
            assertThat(requests.get("req-again")).isEmpty();
        }
    }

    private static TaskStore.RequestWrite write(String id, String g, RunKey key, String node, String runId) {
        return new TaskStore.RequestWrite(new io.swale.record.RequestRecord(id,
                new io.swale.record.AdminRequest.Rerun(g, key.partition(), node), 1_000,
                new io.swale.record.RequestOutcome.Rerun(runId), false));
    }
}
