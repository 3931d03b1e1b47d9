package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Partition;
import io.swale.record.GraphRecord;
import io.swale.record.RunState;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.redis.RedisKeys;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** The partitions of one start: created together in one round trip, their roots submitted together in another. */
class StartRunsIT {
    private final Map<String, AtomicInteger> runCalls = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> taskCalls = new ConcurrentHashMap<>();

    private RunHarness harness() throws Exception {
        return RunHarness.counting(runCalls, taskCalls);
    }

    @Test
    void thePartitionsOfOneStartAreCreatedTogetherAndTheirRootsSubmittedTogether() throws Exception {
        try (RunHarness h = harness()) {
            String g = RunHarness.graphName("start");
            String hash = h.chain(g);
            h.definitionStore.putGraphRecord(g, new GraphRecord(hash, 1));
            Partition old = Partition.of("old");
            assertThat(h.graphRuns.startRun(hash, old).started()).isTrue();
            h.dispatches.clear();
            runCalls.clear();
            taskCalls.clear();
            Partition one = Partition.of("one");
            Partition two = Partition.of("two");

            assertThat(h.graphRuns.startRuns(g, List.of(one, old, two))).containsExactly(one, two);

            assertThat(runCalls.get("createEach")).hasValue(1);
            assertThat(runCalls).doesNotContainKey("create");
            assertThat(taskCalls.get("submitEach")).hasValue(1);
            assertThat(taskCalls).doesNotContainKeys("submit", "submitAll");
            assertThat(h.dispatches).extracting(d -> d.identity().runId())
                    .containsExactly(new RunKey(g, one).runId("a", 0), new RunKey(g, two).runId("a", 0));
            assertThat(h.runs.activeRuns()).contains(new RunKey(g, one), new RunKey(g, old), new RunKey(g, two));
        }
    }

    /**
     * A run created whose roots fail to submit is started all the same, and its roots are left to the reconciler.
     * Was: the failure was thrown after the runs were created, so the API answered 503 to a start that took effect,
     * and its retry found the runs created and reported nothing started.
     */
    @Test
    void aRunWhoseRootFailsToSubmitIsStartedAndItsRootLeftToTheReconciler() throws Exception {
        try (RunHarness h = harness()) {
            String g = RunHarness.graphName("start");
            h.definitionStore.putGraphRecord(g, new GraphRecord(h.chain(g), 1));
            RunKey bad = new RunKey(g, Partition.of("bad"));
            RunKey good = new RunKey(g, Partition.of("good"));
            // the run is created, but its submit script fails on a key of the wrong type
            h.pool.set(new RedisKeys(h.prefix).inputs(bad), "not a hash");

            assertThat(h.graphRuns.startRuns(g, List.of(bad.partition(), good.partition())))
                    .containsExactly(bad.partition(), good.partition());

            assertThat(h.dispatches).extracting(d -> d.identity().runId()).containsExactly(good.runId("a", 0));
            assertThat(h.runs.read(bad).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);
            assertThat(h.runs.activeRuns()).contains(bad);
            assertThat(h.graphRuns.startRuns(g, List.of(bad.partition()))).as("a retry: the run exists").isEmpty();

            // the key mended, the reconciler submits the root
            h.pool.del(new RedisKeys(h.prefix).inputs(bad));
            h.reconciler(0).pass();
            assertThat(h.dispatches).extracting(d -> d.identity().runId()).contains(bad.runId("a", 0));
        }
    }

    /**
     * A create whose reply is lost after Redis applied it: the runs are there with this start's record, so the start
     * answers them started and submits their roots. Was: 503, and the retry under the same key found the runs
     * created and recorded nothing started.
     */
    @Test
    void aCreateWhoseReplyIsLostAfterItAppliedAnswersTheRunsStarted() throws Exception {
        AtomicBoolean loseReply = new AtomicBoolean();
        AtomicBoolean failFirst = new AtomicBoolean();
        try (RunHarness h = new RunHarness(r -> RunHarness.before(RunStore.class,
                RunHarness.after(RunStore.class, r, (method, args) -> failIf(method, loseReply)),
                (method, args) -> failIf(method, failFirst)), t -> t)) {
            String g = RunHarness.graphName("lostcreate");
            h.definitionStore.putGraphRecord(g, new GraphRecord(h.chain(g), 1));
            Partition one = Partition.of("one");
            Partition two = Partition.of("two");
            loseReply.set(true);

            assertThat(h.graphRuns.startRuns(g, List.of(one, two))).containsExactly(one, two);

            assertThat(h.dispatches).extracting(d -> d.identity().runId())
                    .containsExactly(new RunKey(g, one).runId("a", 0), new RunKey(g, two).runId("a", 0));
            // a create that applied nothing fails as it did
            failFirst.set(true);
            assertThatThrownBy(() -> h.graphRuns.startRuns(g, List.of(Partition.of("three"))))
                    .isInstanceOf(JedisConnectionException.class);
            assertThat(h.runs.read(new RunKey(g, Partition.of("three")))).isEmpty();
        }
    }

    private static void failIf(String method, AtomicBoolean armed) {
        if (method.equals("createEach") && armed.getAndSet(false)) {
            throw new JedisConnectionException("Read timed out");
        }
    }

    @Test
    void aStartOfARunThatSettledLeavesItOutOfTheActiveIndex() throws Exception {
        try (RunHarness h = harness()) {
            String g = RunHarness.graphName("again");
            RunKey settled = h.runWithFailedRoot(g);
            h.definitionStore.putGraphRecord(g, new GraphRecord(h.runs.read(settled).orElseThrow().run().definition(), 1));
            assertThat(h.graphRuns.advance(h.runs.read(settled).orElseThrow(), List.of("a", "b")).settled()).isTrue();
            assertThat(h.runs.activeRuns()).doesNotContain(settled);
            String hash = h.runs.read(settled).orElseThrow().run().definition();

            // once alone, then with a new partition (the runs of one start are created together)
            assertThat(h.graphRuns.startRun(hash, settled.partition()).started()).isFalse();
            assertThat(h.runs.activeRuns()).doesNotContain(settled);
            Partition fresh = Partition.of("fresh");
            assertThat(h.graphRuns.startRuns(g, List.of(settled.partition(), fresh))).containsExactly(fresh);

            assertThat(h.runs.activeRuns()).doesNotContain(settled).contains(new RunKey(g, fresh));
            assertThat(h.runs.read(settled).orElseThrow().run().state()).isEqualTo(RunState.FAILED);
        }
    }
}
