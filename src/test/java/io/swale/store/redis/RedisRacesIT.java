package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.record.RunState;
import io.swale.store.PendingInstance;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Claim, compare-and-put and the other conditional writes under concurrent callers, and the fences and
 * conditional removals of issue 13, on a real redis-server.
 */
@WithTestRedis
class RedisRacesIT {
    private static final int THREADS = 8;
    static UnifiedJedis pool;
    private static final AtomicLong SEQ = new AtomicLong();

    private RedisTaskStore tasks;
    private RedisRunStore runs;
    private RunKey key;
    private ExecutorService threads;

    @BeforeAll
    static void connect(UnifiedJedis redis) {
        pool = redis;
    }

    @BeforeEach
    void stores() {
        tasks = new RedisTaskStore(pool, "r");
        runs = new RedisRunStore(pool, "r");
        key = new RunKey("g" + SEQ.incrementAndGet(), Partition.of("p"));
        threads = Executors.newFixedThreadPool(THREADS);
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static TaskInput input() {
        return new TaskInput("noop", JsonNodeFactory.instance.nullNode(), Map.of(), Map.of());
    }

    private TaskStore.Submit submit(String node) {
        return tasks.submit(key, key.runId(node, 0),
                new PendingInstance(node, Optional.empty(), "h", 0, "default", 3), input());
    }

    /** Runs {@code n} copies of {@code task} released together by a barrier; results in thread order. */
    private <T> List<T> race(int n, java.util.function.IntFunction<Callable<T>> task) throws Exception {
        CyclicBarrier start = new CyclicBarrier(n);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Callable<T> c = task.apply(i);
            futures.add(threads.submit(() -> {
                start.await();
                return c.call();
            }));
        }
        List<T> out = new ArrayList<>();
        for (Future<T> f : futures) {
            out.add(f.get());
        }
        return out;
    }

    @Test
    void eightClaimantsRacingForOnePendingInstanceExactlyOneWinsEachRound() throws Exception {
        assertThat(submit("n")).isEqualTo(TaskStore.Submit.NEW);
        String runId = key.runId("n", 0);
        for (int round = 1; round <= 3; round++) {
            List<TaskStore.Claim> claims = race(THREADS, i -> () -> tasks.claim(key, runId, 60_000, "w" + i));

            List<TaskStore.Claim.Claimed> won = claims.stream().filter(TaskStore.Claim.Claimed.class::isInstance)
                    .map(TaskStore.Claim.Claimed.class::cast).toList();
            assertThat(won).hasSize(1);
            assertThat(won.getFirst().token()).isEqualTo(2L * round - 1); // the give-back bumps it too
            assertThat(claims).filteredOn(TaskStore.Claim.Refused.class::isInstance)
                    .allMatch(c -> ((TaskStore.Claim.Refused) c).state().equals("running"));
            // give it back so the next round races for it again
            assertThat(tasks.giveBack(key, runId, won.getFirst().token(), "next round"))
                    .isEqualTo(TaskStore.GiveBack.RELEASED);
        }
    }

    @Test
    void finishesOfManyAttemptsEndingTogetherEachGetTheirOwnOutcome() throws Exception {
        int n = 40;
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            assertThat(submit("n" + i)).isEqualTo(TaskStore.Submit.NEW);
            tokens.add(((TaskStore.Claim.Claimed) tasks.claim(key, key.runId("n" + i, 0), 60_000, "w")).token());
        }
        // each thread finishes its share; every third one first with a stale token, which must change nothing
        List<List<TaskStore.Finish>> outcomes = race(THREADS, t -> () -> {
            List<TaskStore.Finish> out = new ArrayList<>();
            for (int i = t; i < n; i += THREADS) {
                RecordField field = new RecordField("n" + i, Optional.empty());
                NodeRecord ok = new NodeRecord(NodeStatus.SUCCEEDED, key.runId("n" + i, 0), "h", 0, i, Optional.empty(),
                        false, Optional.empty());
                if (i % 3 == 0) {
                    out.add(tasks.finish(key, field, tokens.get(i) + 100, ok));
                }
                out.add(tasks.finish(key, field, tokens.get(i), ok));
                out.add(tasks.finish(key, field, tokens.get(i), ok));
            }
            return out;
        });

        for (int t = 0; t < THREADS; t++) {
            List<TaskStore.Finish> expected = new ArrayList<>();
            for (int i = t; i < n; i += THREADS) {
                if (i % 3 == 0) {
                    expected.add(TaskStore.Finish.LOST);
                }
                expected.add(TaskStore.Finish.OK);
                expected.add(TaskStore.Finish.SETTLED);
            }
            assertThat(outcomes.get(t)).as("thread %d", t).isEqualTo(expected);
        }
        Map<String, NodeRecord> records = runs.read(key).orElseThrow().nodeRecords();
        for (int i = 0; i < n; i++) {
            assertThat(records.get(new RecordField("n" + i, Optional.empty()).key()).status()).isEqualTo(NodeStatus.SUCCEEDED);
        }
    }

    @Test
    void writersRacingOnOneVersionExactlyOneWinsPerVersion() throws Exception {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        for (int version = 0; version < 10; version++) {
            RunView read = runs.read(key).orElseThrow();
            int v = version;
            List<Boolean> puts = race(THREADS, i -> () -> {
                TreeMap<String, Long> expected = new TreeMap<>(read.run().expectedReruns());
                expected.put("v" + v, (long) i);
                return runs.compareAndPut(key, read.version(), read.run().withExpectedReruns(expected));
            });

            assertThat(puts).filteredOn(Boolean::booleanValue).hasSize(1);
            int winner = puts.indexOf(true);
            assertThat(runs.read(key).orElseThrow().run().expectedReruns()).containsEntry("v" + v, (long) winner)
                    .hasSize(v + 1);
        }
    }

    @Test
    void settlersRacingOnOneVersionExactlyOneWins() throws Exception {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        RunView read = runs.read(key).orElseThrow();
        List<Boolean> settles = race(THREADS, i -> () -> runs.compareAndSettle(key, read.version(),
                read.run().withState(RunState.FAILED, Optional.of(1000L + i)), List.of()));

        assertThat(settles).filteredOn(Boolean::booleanValue).hasSize(1);
        assertThat(runs.read(key).orElseThrow().run().settledAtMs()).contains(1000L + settles.indexOf(true));
    }

    @Test
    void aSettleIsRefusedWhileOneOfItsAbsentRunIdsIsActive() {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        RunView read = runs.read(key).orElseThrow();
        assertThat(submit("n")).isEqualTo(TaskStore.Submit.NEW);

        GraphRunRecord failed = read.run().withState(RunState.FAILED, Optional.of(5L));
        assertThat(runs.compareAndSettle(key, read.version(), failed, List.of(key.runId("n", 0)))).isFalse();
        assertThat(runs.compareAndSettle(key, read.version(), failed, List.of(key.runId("other", 0)))).isTrue();
    }

    /**
     * An instance submitted after the read and already ended (a rerun of a failed node, which leaves the run record
     * as it is) refuses the settle too. Was: only an active one did, and a settle from the stale read ended the run
     * failed after the rerun had succeeded, its downstream never run.
     */
    @Test
    void aSettleIsRefusedWhenOneOfItsAbsentRunIdsWasSubmittedAndEndedSinceTheRead() {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        RunView read = runs.read(key).orElseThrow();
        assertThat(submit("n")).isEqualTo(TaskStore.Submit.NEW);
        String runId = key.runId("n", 0);
        long token = ((TaskStore.Claim.Claimed) tasks.claim(key, runId, 60_000, "w")).token();
        assertThat(tasks.finish(key, new RecordField("n", Optional.empty()), token, new NodeRecord(NodeStatus.SUCCEEDED,
                runId, "h", 0, 6, Optional.empty(), false, Optional.empty()))).isEqualTo(TaskStore.Finish.OK);

        GraphRunRecord failed = read.run().withState(RunState.FAILED, Optional.of(5L));
        assertThat(runs.compareAndSettle(key, read.version(), failed, List.of(runId))).isFalse();
        assertThat(runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);
    }

    @Test
    void aSettledOrCancelledRunTakesNoNewInstance() {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        assertThat(submit("a")).isEqualTo(TaskStore.Submit.NEW);
        RunView read = runs.read(key).orElseThrow();
        assertThat(runs.compareAndSettle(key, read.version(),
                read.run().withState(RunState.CANCELLED, Optional.of(5L)))).isTrue();

        assertThat(submit("b")).isEqualTo(TaskStore.Submit.INACTIVE);
        assertThat(submit("a")).isEqualTo(TaskStore.Submit.EXISTS);
        assertThat(runs.read(key).orElseThrow().instances()).doesNotContainKey(key.runId("b", 0));
    }

    @Test
    void aPendingInstanceOfACancelledRunIsNotClaimed() {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        assertThat(submit("a")).isEqualTo(TaskStore.Submit.NEW);
        RunView read = runs.read(key).orElseThrow();
        // the cancel is committed on the run; its instances are not cancelled yet
        assertThat(runs.compareAndSettle(key, read.version(),
                read.run().withState(RunState.CANCELLED, Optional.of(5L)))).isTrue();

        assertThat(tasks.claim(key, key.runId("a", 0), 60_000, "w")).isEqualTo(new TaskStore.Claim.Refused("run_cancelled"));
        assertThat(tasks.claimAll(List.of(new TaskStore.ClaimRequest(key, key.runId("a", 0)),
                new TaskStore.ClaimRequest(key, key.runId("a", 0))), 60_000, "w"))
                .allMatch(c -> c.equals(new TaskStore.Claim.Refused("run_cancelled")));
    }

    @Test
    void anAttemptEndingAfterItsRunWasCancelledEndsCancelled() {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        assertThat(submit("a")).isEqualTo(TaskStore.Submit.NEW);
        String runId = key.runId("a", 0);
        long token = ((TaskStore.Claim.Claimed) tasks.claim(key, runId, 60_000, "w")).token();
        RunView read = runs.read(key).orElseThrow();
        // the cancel is committed on the run; the running instance is not flagged yet
        assertThat(runs.compareAndSettle(key, read.version(),
                read.run().withState(RunState.CANCELLED, Optional.of(5L)))).isTrue();
        RecordField field = new RecordField("a", Optional.empty());

        NodeRecord succeeded = new NodeRecord(NodeStatus.SUCCEEDED, runId, "h", 0, 6, Optional.empty(), false,
                Optional.empty());
        assertThat(tasks.finish(key, field, token, succeeded)).isEqualTo(TaskStore.Finish.CANCELLING);
        assertThat(runs.read(key).orElseThrow().nodeRecords()).isEmpty();

        NodeRecord cancelled = new NodeRecord(NodeStatus.CANCELLED, runId, "h", 0, 7, Optional.empty(), false,
                Optional.of("the graph run was cancelled"));
        assertThat(tasks.finish(key, field, token, cancelled)).isEqualTo(TaskStore.Finish.OK);
        assertThat(runs.read(key).orElseThrow().nodeRecords().get(field.key()).status()).isEqualTo(NodeStatus.CANCELLED);
    }

    @Test
    void theActiveIndexDropsOnlyARunThatIsIdleAtRemovalTime() {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        assertThat(runs.dropActive(key)).isFalse(); // active
        assertThat(submit("a")).isEqualTo(TaskStore.Submit.NEW);
        RunView read = runs.read(key).orElseThrow();
        assertThat(runs.compareAndSettle(key, read.version(),
                read.run().withState(RunState.CANCELLED, Optional.of(5L)))).isTrue();
        assertThat(runs.dropActive(key)).isFalse(); // settled, an instance still active
        assertThat(runs.activeRuns()).contains(key);

        NodeRecord cancelled = new NodeRecord(NodeStatus.CANCELLED, key.runId("a", 0), "h", 0, 6, Optional.empty(),
                false, Optional.of("cancelled"));
        assertThat(tasks.cancel(key, new RecordField("a", Optional.empty()), cancelled)).isEqualTo(TaskStore.Cancel.CANCELLED);
        assertThat(runs.dropActive(key)).isTrue();
        assertThat(runs.activeRuns()).doesNotContain(key);
    }

    @Test
    void anInstanceWhoseStateCannotBeReadKeepsItsSettledRunInTheActiveIndex() {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        RunView read = runs.read(key).orElseThrow();
        String instances = new RedisKeys("r").instances(key);
        // an ended instance whose error quotes a state of its own, and one that does not parse
        pool.hset(instances, key.runId("a", 0), "{\"err\":\"saw \\\"state\\\":\\\"running\\\"\",\"state\":\"failed\"}");
        pool.hset(instances, key.runId("b", 0), "{not json");
        assertThat(runs.compareAndSettle(key, read.version(),
                read.run().withState(RunState.FAILED, Optional.of(5L)))).isTrue();
        assertThat(runs.activeRuns()).contains(key);
        assertThat(runs.dropActive(key)).isFalse();

        pool.hdel(instances, key.runId("b", 0));
        assertThat(runs.dropActive(key)).isTrue();
        assertThat(runs.activeRuns()).doesNotContain(key);
    }

    @Test
    void aReactivatingPutEntersTheActiveIndexWithTheRecord() {
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        RunView read = runs.read(key).orElseThrow();
        assertThat(runs.compareAndSettle(key, read.version(), read.run().withState(RunState.FAILED, Optional.of(5L))))
                .isTrue();
        // settled with no instance active: it left the index in the same step
        assertThat(runs.activeRuns()).doesNotContain(key);
        RunView failed = runs.read(key).orElseThrow();

        assertThat(runs.compareAndPut(key, failed.version(), failed.run().withState(RunState.ACTIVE, Optional.empty())))
                .isTrue();
        assertThat(runs.activeRuns()).contains(key);
    }

    @Test
    void theSettlesOfSeveralRunsEachCommitOnTheirOwnAndOneThatFailsFailsAlone() {
        RunKey stale = new RunKey(key.graph(), Partition.of("stale"));
        RunKey broken = new RunKey(key.graph(), Partition.of("broken"));
        RunKey busy = new RunKey(key.graph(), Partition.of("busy"));
        for (RunKey k : List.of(key, stale, broken, busy)) {
            assertThat(runs.create(k, GraphRunRecord.started("h", 1))).isTrue();
        }
        assertThat(tasks.submit(busy, busy.runId("a", 0), new PendingInstance("a", Optional.empty(), "h", 0, "default", 3),
                input())).isEqualTo(TaskStore.Submit.NEW);
        List<RunStore.Settle> settles = new ArrayList<>();
        for (RunKey k : List.of(key, stale, broken, busy)) {
            RunView read = runs.read(k).orElseThrow();
            settles.add(new RunStore.Settle(k, read.version(), read.run().withState(RunState.COMPLETE, Optional.of(5L)),
                    List.of()));
        }
        // changed since it was read; not a run record at all
        RunView s = runs.read(stale).orElseThrow();
        assertThat(runs.compareAndPut(stale, s.version(), s.run().withExpectedReruns(new TreeMap<>(Map.of("x", 1L)))))
                .isTrue();
        String brokenKey = new RedisKeys("r").run(broken);
        pool.del(brokenKey);
        pool.hset(brokenKey, "not", "a string");

        List<RunStore.Settled> settled = runs.settleEach(settles);

        assertThat(settled.get(0)).isEqualTo(new RunStore.Settled.Done(true));
        assertThat(settled.get(1)).isEqualTo(new RunStore.Settled.Done(false));
        assertThat(settled.get(2)).isInstanceOfSatisfying(RunStore.Settled.Failed.class,
                f -> assertThat(f.error()).hasMessageContaining("WRONGTYPE"));
        assertThat(settled.get(3)).isEqualTo(new RunStore.Settled.Done(true));
        assertThat(runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.COMPLETE);
        assertThat(runs.read(busy).orElseThrow().run().state()).isEqualTo(RunState.COMPLETE);
        assertThat(runs.read(stale).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);
        // the settled run with an instance still active stays in the index for the reconciler
        assertThat(runs.activeRuns()).doesNotContain(key).contains(stale, busy);
    }

    /** Moves the instance's last dispatch back by {@code ms}, as if that much time had passed. */
    private void age(String runId, long ms) {
        {
            var j = pool;
            String k = new RedisKeys("r").instances(key);
            ObjectNode o = (ObjectNode) RecordCodec.JSON.readTree(j.hget(k, runId));
            o.put("dispatched", o.get("dispatched").asLong() - ms);
            j.hset(k, runId, RecordCodec.text(o));
        }
    }

    @Test
    void aStillPendingInstanceIsDispatchedAgainWithBackoffNotOnEveryPass() {
        long stale = 60_000;
        assertThat(submit("n")).isEqualTo(TaskStore.Submit.NEW);
        String runId = key.runId("n", 0);
        List<Integer> dispatchedAt = new ArrayList<>();
        // one pass per stale interval, 8 times: the waits double (1, 2, 4 intervals)
        for (int pass = 1; pass <= 8; pass++) {
            age(runId, stale);
            if (tasks.redispatchIfStale(key, runId, stale)) {
                dispatchedAt.add(pass);
            }
        }
        assertThat(dispatchedAt).containsExactly(1, 3, 7);

        // a claim resets the backoff: the next lost dispatch is repaired after one interval again
        TaskStore.Claim.Claimed c = (TaskStore.Claim.Claimed) tasks.claim(key, runId, 60_000, "w");
        assertThat(tasks.giveBack(key, runId, c.token(), "shutdown")).isEqualTo(TaskStore.GiveBack.RELEASED);
        age(runId, stale);
        assertThat(tasks.redispatchIfStale(key, runId, stale)).isTrue();
    }

    @Test
    void aDelayedEntryIsRemovedOnlyWithTheDueTimeRead() {
        assertThat(submit("n")).isEqualTo(TaskStore.Submit.NEW);
        String runId = key.runId("n", 0);
        tasks.scheduleDelayed(key, runId, 1_000);
        TaskStore.Delayed read = tasks.dueDelayed(10).stream().filter(d -> d.key().equals(key)).findFirst().orElseThrow();
        assertThat(read.dueMs()).isEqualTo(1_000);

        tasks.scheduleDelayed(key, runId, 2_000); // re-parked between the read and the remove
        assertThat(tasks.removeDelayed(read.key(), read.runId(), read.dueMs())).isFalse();
        assertThat(tasks.dueDelayed(10)).contains(new TaskStore.Delayed(key, runId, 2_000));

        assertThat(tasks.removeDelayed(key, runId, 2_000)).isTrue();
        assertThat(tasks.dueDelayed(10)).noneMatch(d -> d.key().equals(key));
    }
}
