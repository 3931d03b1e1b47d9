package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.AdminRequest;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import io.swale.record.RunState;
import io.swale.store.DefinitionStore;
import io.swale.store.ExpiryStore;
import io.swale.store.PendingInstance;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunVersion;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Every store script runs on a 3-primary Redis Cluster, which refuses a script whose keys span two slots: the
 * check of spec §14 #25 (one hash slot per atomic unit). The last assertion fails when a script is added to
 * {@link RedisScripts} without being run here.
 */
@WithTestRedisCluster
class ClusterScriptsIT {
    private static final String PREFIX = "c";
    private static TestRedisCluster cluster;

    private final RedisTaskStore tasks = new RedisTaskStore(cluster.redis, PREFIX);
    private final RedisRunStore runs = new RedisRunStore(cluster.redis, PREFIX);
    private final RedisRequestStore requests = new RedisRequestStore(cluster.redis, PREFIX);
    private final RedisExpiryStore expiry = new RedisExpiryStore(cluster.redis, PREFIX);
    private final RedisRunIndex index = new RedisRunIndex(cluster.redis, PREFIX);
    private final RedisWatermarkStore watermarks = new RedisWatermarkStore(cluster.redis, PREFIX);

    @BeforeAll
    static void connect(TestRedisCluster started) {
        cluster = started;
    }

    @Test
    void everyScriptRunsOnACluster() {
        // runs spread over the shards, so over the three nodes
        List<RunKey> keys = IntStream.range(0, 24).mapToObj(i -> new RunKey("g", Partition.of("p" + i))).toList();
        assertThat(keys.stream().map(RedisKeys::shardOf).collect(Collectors.toSet())).hasSizeGreaterThan(3);
        for (RunKey key : keys) {
            assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        }
        assertThat(runs.activeRuns()).containsExactlyInAnyOrderElementsOf(keys);

        RunKey a = keys.getFirst();
        // submit alone, with a rerun's request record, and in a batch
        assertThat(tasks.submit(a, a.runId("n", 0), pending("n"), input())).isEqualTo(TaskStore.Submit.NEW);
        RequestRecord rerun = new RequestRecord("r1", new AdminRequest.Rerun(a.graph(), a.partition(), "m"), 5,
                new RequestOutcome.Rerun(a.runId("m", 1)), false);
        assertThat(tasks.submit(a, a.runId("m", 1), pending("m"), input(), Optional.of(new TaskStore.RequestWrite(rerun))))
                .isEqualTo(TaskStore.Submit.NEW);
        assertThat(requests.get("r1")).hasValue(rerun);
        assertThat(tasks.submitAll(a, List.of(new TaskStore.SubmitRequest(a.runId("x", 0), pending("x"), input()),
                new TaskStore.SubmitRequest(a.runId("y", 0), pending("y"), input()))))
                .containsExactly(TaskStore.Submit.NEW, TaskStore.Submit.NEW);

        // claim alone and in a batch across runs of different shards
        long token = ((TaskStore.Claim.Claimed) tasks.claim(a, a.runId("n", 0), 60_000, "w")).token();
        List<RunKey> others = keys.subList(1, 6);
        for (RunKey k : others) {
            tasks.submit(k, k.runId("n", 0), pending("n"), input());
        }
        // the submissions of several runs of different shards in one round trip, each run's outcomes its own
        assertThat(tasks.submitEach(others.stream().map(k -> new TaskStore.RunSubmits(k, List.of(
                new TaskStore.SubmitRequest(k.runId("e", 0), pending("e"), input()),
                new TaskStore.SubmitRequest(k.runId("n", 0), pending("n"), input())))).toList()))
                .containsOnly(new TaskStore.RunSubmitted.Done(List.of(TaskStore.Submit.NEW, TaskStore.Submit.EXISTS)));
        assertThat(tasks.claimAll(others.stream().map(k -> new TaskStore.ClaimRequest(k, k.runId("n", 0))).toList(),
                60_000, "w")).allMatch(c -> c instanceof TaskStore.Claim.Claimed);
        assertThat(tasks.heartbeat(a, a.runId("n", 0), token, 60_000)).isEqualTo(TaskStore.Heartbeat.RUNNING);
        // the node's declared growth is written with its record, in the run's slot (docs/dynamic-graphs.md §8.3)
        assertThat(tasks.finish(a, new RecordField("n", Optional.empty()), token, record(a.runId("n", 0)),
                Optional.of("{\"by\":\"n\",\"rerun\":0,\"node\":[],\"edges_to\":[]}")))
                .isEqualTo(TaskStore.Finish.OK);
        assertThat(runs.read(a).orElseThrow().growths()).containsOnlyKeys("n");
        // a dead-lettered end owes its copy, in the run's slot, until the copy is sent
        assertThat(tasks.submit(a, a.runId("z", 0), pending("z"), input())).isEqualTo(TaskStore.Submit.NEW);
        long z = ((TaskStore.Claim.Claimed) tasks.claim(a, a.runId("z", 0), 60_000, "w")).token();
        assertThat(tasks.finishDeadLettered(a, new RecordField("z", Optional.empty()), z, failed(a.runId("z", 0))))
                .isEqualTo(TaskStore.Finish.OK);
        assertThat(runs.read(a).orElseThrow().instances().get(a.runId("z", 0)).owedDeadLetter()).hasValue("gave up");
        assertThat(tasks.takeOwedDeadLetter(a, a.runId("z", 0), 60_000, 3_600_000))
                .isEqualTo(TaskStore.OwedDeadLetter.WAIT);
        tasks.deadLetterSent(a, a.runId("z", 0));
        assertThat(runs.read(a).orElseThrow().instances().get(a.runId("z", 0)).owedDeadLetter()).isEmpty();

        // park, release, give back, reap, redispatch, cancel
        long m = ((TaskStore.Claim.Claimed) tasks.claim(a, a.runId("m", 1), 60_000, "w")).token();
        assertThat(tasks.park(a, a.runId("m", 1), m, 0, "again", false, Optional.empty()))
                .isInstanceOf(TaskStore.Park.Waiting.class);
        assertThat(tasks.releaseDue(a, a.runId("m", 1))).isPresent();
        long m2 = ((TaskStore.Claim.Claimed) tasks.claim(a, a.runId("m", 1), 60_000, "w")).token();
        assertThat(tasks.giveBack(a, a.runId("m", 1), m2, "shutdown")).isEqualTo(TaskStore.GiveBack.RELEASED);
        long m3 = ((TaskStore.Claim.Claimed) tasks.claim(a, a.runId("m", 1), 1, "w")).token();
        org.awaitility.Awaitility.await().until(() -> !(tasks.reap(a, a.runId("m", 1)) instanceof TaskStore.Reap.None));
        assertThat(m3).isPositive();
        // stale after 0 ms: due once the clock has moved past the reap's dispatch time
        org.awaitility.Awaitility.await().until(() -> tasks.redispatchIfStale(a, a.runId("m", 1), 0));
        assertThat(tasks.cancel(a, new RecordField("x", Optional.empty()), cancelled(a.runId("x", 0))))
                .isEqualTo(TaskStore.Cancel.CANCELLED);
        assertThat(tasks.cancel(a, new RecordField("y", Optional.empty()), cancelled(a.runId("y", 0))))
                .isEqualTo(TaskStore.Cancel.CANCELLED);
        assertThat(tasks.cancel(a, new RecordField("m", Optional.empty()), cancelled(a.runId("m", 1))))
                .isEqualTo(TaskStore.Cancel.CANCELLED);

        // delayed entries in several shards, read back merged and removed
        for (RunKey k : keys.subList(0, 8)) {
            tasks.scheduleDelayed(k, k.runId("n", 0), 1);
        }
        // (the park above entered its instance too)
        java.util.function.Predicate<TaskStore.Delayed> scheduled = d -> d.runId().equals(d.key().runId("n", 0));
        List<TaskStore.Delayed> due = tasks.dueDelayed(100).stream().filter(scheduled).toList();
        assertThat(due).hasSize(8);
        assertThat(due).allMatch(d -> tasks.removeDelayed(d.key(), d.runId(), d.dueMs()));
        assertThat(tasks.dueDelayed(100)).noneMatch(scheduled);

        // a mapped node's items under max_parallel 2, then its derived record
        RunKey b = keys.get(6);
        String each = b.graph() + "-" + b.partition().key() + "-each[";
        assertThat(tasks.submitItems(b, each, 2, IntStream.range(0, 3).mapToObj(i -> new TaskStore.SubmitRequest(
                each + i + "]-r0", pending("each[" + i + "]"), input())).toList()))
                .containsExactly(TaskStore.ItemSubmit.NEW, TaskStore.ItemSubmit.NEW, TaskStore.ItemSubmit.FULL);
        assertThat(tasks.derive(b, runs.read(b).orElseThrow().version(), new RecordField("each", Optional.empty()),
                record(each + "0]-r0"))).isEqualTo(TaskStore.Derive.WRITTEN);

        // compare-and-put, settle, leave the active index
        RunVersion v = runs.read(a).orElseThrow().version();
        GraphRunRecord read = runs.read(a).orElseThrow().run();
        assertThat(runs.compareAndPut(a, v, read)).isTrue();
        RunVersion v2 = runs.read(a).orElseThrow().version();
        GraphRunRecord settled = read.withState(RunState.COMPLETE, Optional.of(10L));
        // n-r0 is there: a settle that takes it for absent is refused
        assertThat(runs.compareAndSettle(a, v2, settled, List.of(a.runId("n", 0)))).isFalse();
        assertThat(runs.compareAndSettle(a, v2, settled, List.of(a.runId("n", 1)))).isTrue();
        // none of its instances is active: it left the active index in the same step
        assertThat(runs.activeRuns()).doesNotContain(a).hasSize(keys.size() - 1);
        assertThat(runs.dropActive(a)).isFalse();
        assertThat(index.settledSince(0)).containsEntry(a, 10L);

        // request records of every kind, found by id in whatever shard they went to
        RequestRecord start = new RequestRecord("s1", new AdminRequest.Start("g", List.of(Partition.of("q"))), 6,
                new RequestOutcome.Started(List.of(Partition.of("q"))), false);
        assertThat(requests.putIfAbsent(start)).isTrue();
        assertThat(requests.putIfAbsent(start)).isFalse();
        assertThat(requests.get("s1")).hasValue(start);
        // a request's handling held, kept past its first time, and let go
        var held = (io.swale.store.RequestStore.Hold.Held) requests.hold("h1", start.request(),
                java.time.Duration.ofSeconds(5));
        assertThat(requests.renew("h1", held, java.time.Duration.ofMinutes(1))).isTrue();
        requests.release("h1", held);
        assertThat(requests.renew("h1", held, java.time.Duration.ofMinutes(1))).as("let go").isFalse();

        // retention: the run and both request records
        List<ExpiryStore.Entry> entries = expiry.due(Long.MAX_VALUE, 0, 100);
        assertThat(entries).extracting(ExpiryStore.Entry::target).containsExactly("req:r1", "req:s1", "run:" + a.id());
        assertThat(expiry.due(Long.MAX_VALUE, 1, 1)).extracting(ExpiryStore.Entry::target).containsExactly("req:s1");
        assertThat(expiry.expireRequest("r1", entries.get(0))).isEqualTo(ExpiryStore.RequestExpiry.REMOVED);
        assertThat(expiry.expireRequest("s1", entries.get(1))).isEqualTo(ExpiryStore.RequestExpiry.REMOVED);
        assertThat(requests.get("r1")).isEmpty();
        assertThat(expiry.expireRun(a, runs.read(a).orElseThrow().version(), entries.get(2))).isTrue();
        assertThat(runs.read(a)).isEmpty();
        assertThat(expiry.due(Long.MAX_VALUE, 0, 100)).isEmpty();

        // the settles of runs of different shards in one round trip
        List<RunKey> idle = keys.subList(8, 12);
        assertThat(runs.settleEach(idle.stream().map(k -> new io.swale.store.RunStore.Settle(k,
                runs.read(k).orElseThrow().version(), settled, List.of())).toList()))
                .containsOnly(new io.swale.store.RunStore.Settled.Done(true));
        assertThat(runs.activeRuns()).doesNotContainAnyElementsOf(idle).hasSize(keys.size() - 1 - idle.size());

        // a graph's last run expired: the graph leaves the set of graphs with runs
        RunKey lone = new RunKey("lone", Partition.of("p"));
        runs.create(lone, GraphRunRecord.started("h", 1));
        assertThat(runs.graphsWithRuns()).contains("lone");
        // every graph's index of runs shares one slot, so the graphs' newest partitions are one node's pipeline
        assertThat(runs.newestPartitions(List.of("lone", "none_yet"), 2))
                .containsEntry("lone", List.of(Partition.of("p"))).containsEntry("none_yet", List.of());
        assertThat(expiry.expireRun(lone, runs.read(lone).orElseThrow().version(), new ExpiryStore.Entry("run:" + lone.id(), 1)))
                .isTrue();
        assertThat(runs.graphsWithRuns()).doesNotContain("lone");

        assertThat(watermarks.advance("sched", 100)).isTrue();
        assertThat(watermarks.advance("sched", 50)).isFalse();
        assertThat(watermarks.watermarks()).containsEntry("sched", 100L);

        // a publish's pointer moves only while every pointer is as it read them
        RedisDefinitionStore definitions = new RedisDefinitionStore(cluster.redis, PREFIX);
        assertThat(definitions.movePointer("g", "h1")).isTrue();
        var pointers = definitions.currentPointers();
        assertThat(definitions.movePointer("other", "h2", pointers)).isEqualTo(DefinitionStore.PointerMove.MOVED);
        assertThat(definitions.movePointer("g", "h3", pointers)).isEqualTo(DefinitionStore.PointerMove.STALE);
        assertThat(definitions.movePointer("g", "h1", definitions.currentPointers()))
                .isEqualTo(DefinitionStore.PointerMove.UNCHANGED);

        // every script of RedisScripts ran on some node of the cluster
        Set<String> notRun = new RedisScripts().all().stream().filter(s -> !cluster.ranSomewhere(s.sha()))
                .map(RedisScripts.Script::name).collect(Collectors.toSet());
        assertThat(notRun).as("scripts never run on the cluster").isEmpty();
    }

    private static PendingInstance pending(String node) {
        return new PendingInstance(node, Optional.empty(), "h", 0, "default", 3);
    }

    private static TaskInput input() {
        return new TaskInput("noop", JsonNodeFactory.instance.nullNode(), Map.of(), Map.of());
    }

    private static NodeRecord record(String runId) {
        return new NodeRecord(NodeStatus.SUCCEEDED, runId, "h", 0, 1, Optional.empty(), false, Optional.empty());
    }

    private static NodeRecord failed(String runId) {
        return new NodeRecord(NodeStatus.FAILED, runId, "h", 0, 1, Optional.empty(), false, Optional.of("gave up"));
    }

    private static NodeRecord cancelled(String runId) {
        return new NodeRecord(NodeStatus.CANCELLED, runId, "h", 0, 1, Optional.empty(), false, Optional.empty());
    }
}
