package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisKeys;
import io.swale.store.TaskInstance;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The lease reaper reads the lease index, then only the runs whose leases ended, on a real redis-server: its
 * cost follows the expired leases, not the active runs. Stale entries are dropped; a lease the index does not
 * hold is left to the reconciler's full pass.
 */
class LeaseReaperIT {
    private final List<RunKey> readKeys = new CopyOnWriteArrayList<>();
    private final AtomicInteger activeRunReads = new AtomicInteger();

    @SuppressWarnings("unchecked")
    private RunHarness harness() throws Exception {
        return new RunHarness(r -> RunHarness.before(RunStore.class, r, (method, args) -> {
            switch (method) {
                case "readEach", "readAll" -> readKeys.addAll((List<RunKey>) args[0]);
                case "activeRuns" -> activeRunReads.incrementAndGet();
                default -> { }
            }
        }), t -> t);
    }

    private static RunKey startAndClaim(RunHarness h, String hash, String graph, String partition, long leaseMs) {
        RunKey key = new RunKey(graph, Partition.of(partition));
        assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
        assertThat(h.tasks.claim(key, key.runId("a", 0), leaseMs, "w")).isInstanceOf(TaskStore.Claim.Claimed.class);
        return key;
    }

    private static String entry(RunKey key) {
        return key.id() + "|" + key.runId("a", 0);
    }

    @Test
    void aPassReadsOnlyTheRunsWhoseLeasesEnded() throws Exception {
        try (RunHarness h = harness()) {
            String g = RunHarness.graphName("reapidx");
            String hash = h.oneNode(g);
            for (int i = 0; i < 30; i++) {
                startAndClaim(h, hash, g, "held" + i, 60_000);
            }
            RunKey expired = startAndClaim(h, hash, g, "expired", 0);
            h.dispatches.clear();
            readKeys.clear();

            assertThat(h.reaper.pass()).isEqualTo(1);

            assertThat(readKeys).containsExactly(expired);
            assertThat(activeRunReads).hasValue(0);
            assertThat(h.dispatches).singleElement()
                    .satisfies(d -> assertThat(d.identity().runKey()).isEqualTo(expired));
            assertThat(h.runs.read(expired).orElseThrow().instances().get(expired.runId("a", 0)).status())
                    .isEqualTo(InstanceStatus.PENDING);
            // dispatched again, its entry is gone: the next pass reads nothing
            readKeys.clear();
            assertThat(h.reaper.pass()).isZero();
            assertThat(readKeys).isEmpty();
        }
    }

    @Test
    void twoReapersOfOneExhaustedLeaseEndItOnceWithOneDeadLetter() throws Exception {
        AtomicReference<Runnable> secondReaper = new AtomicReference<>();
        // the second reaper runs whole between the first one's reap and its finish
        try (RunHarness h = new RunHarness(r -> r, t -> RunHarness.before(TaskStore.class, t, (method, args) -> {
            if (method.equals("finishDeadLettered")) {
                Optional.ofNullable(secondReaper.getAndSet(null)).ifPresent(Runnable::run);
            }
        }))) {
            String g = RunHarness.graphName("reaptwice");
            RunKey key = startAndClaim(h, h.chain(g), g, "p", 0);
            TaskInstance held = h.runs.read(key).orElseThrow().instances().get(key.runId("a", 0));
            secondReaper.set(() -> assertThat(h.reaper.reap(key, held)).isTrue());

            assertThat(h.reaper.reap(key, held)).isTrue();

            assertThat(secondReaper).hasNullValue();
            assertThat(h.runs.read(key).orElseThrow().instances().get(key.runId("a", 0)).status())
                    .isEqualTo(InstanceStatus.FAILED);
            assertThat(h.deadLetters).singleElement().satisfies(d -> assertThat(d.lastError()).contains("no attempt is left"));
        }
    }

    @Test
    void aDeadLetterCopyThatWasNotSentIsSentByTheReconcilerAndHoldsTheRunInTheActiveIndexUntilThen() throws Exception {
        try (RunHarness h = harness()) {
            String g = RunHarness.graphName("reapowed");
            String hash = h.oneNode(g);
            RunKey key = new RunKey(g, Partition.of("p"));
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            String runId = key.runId("a", 0);
            // three attempts, each claimed with a lease that is over at once: the third one's reap dead-letters it
            for (int attempt = 1; attempt <= 3; attempt++) {
                assertThat(h.tasks.claim(key, runId, 0, "w")).isInstanceOf(TaskStore.Claim.Claimed.class);
                if (attempt == 3) {
                    h.deadLettersDown.set(true);
                }
                TaskInstance held = h.runs.read(key).orElseThrow().instances().get(runId);
                assertThat(h.reaper.reap(key, held)).isTrue();
            }
            TaskInstance failed = h.runs.read(key).orElseThrow().instances().get(runId);
            assertThat(failed.status()).isEqualTo(InstanceStatus.FAILED);
            assertThat(failed.owedDeadLetter()).hasValueSatisfying(e -> assertThat(e).contains("no attempt is left"));
            assertThat(h.deadLetters).isEmpty();
            // the run settles failed, yet stays where the reconciler looks, while the copy is owed
            h.graphRuns.advanceAll(h.runs.read(key).orElseThrow());
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(io.swale.record.RunState.FAILED);
            assertThat(h.runs.activeRuns()).contains(key);
            assertThat(h.runs.dropActive(key)).isFalse();
            // ended just now: not sent again before stale-dispatch, which the holder may still be waiting out
            h.deadLettersDown.set(false);
            h.reconciler(60_000).pass();
            assertThat(h.deadLetters).isEmpty();
            h.deadLettersDown.set(true);
            h.reconciler(0).pass();
            assertThat(h.runs.read(key).orElseThrow().instances().get(runId).owedDeadLetter()).as("still owed")
                    .isPresent();
            assertThat(h.runs.activeRuns()).contains(key);

            h.deadLettersDown.set(false);
            h.reconciler(0).pass();

            assertThat(h.deadLetters).singleElement().satisfies(d -> {
                assertThat(d.identity().runId()).isEqualTo(runId);
                assertThat(d.pool()).isEqualTo("default");
                assertThat(d.attempts()).isEqualTo(3);
                assertThat(d.maxAttempts()).isEqualTo(3);
                assertThat(d.lastError()).contains("no attempt is left");
                assertThat(d.history()).hasSize(3);
            });
            assertThat(h.runs.read(key).orElseThrow().instances().get(runId).owedDeadLetter()).isEmpty();
            assertThat(h.runs.activeRuns()).doesNotContain(key);
            // sent, it is not sent again
            h.reconciler(0).pass();
            assertThat(h.deadLetters).hasSize(1);
        }
    }

    /**
     * A copy sent, or one no try can send (given up at once), leaves nothing owed: it does not hold its run in the
     * active index.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void aDeadLetterCopySentOrRefusedForItselfLeavesNothingOwed(boolean refused) throws Exception {
        try (RunHarness h = harness()) {
            String g = RunHarness.graphName("reapsent");
            RunKey key = startAndClaim(h, h.chain(g), g, "p", 0);
            TaskInstance held = h.runs.read(key).orElseThrow().instances().get(key.runId("a", 0));
            h.deadLettersRefused.set(refused);

            assertThat(h.reaper.reap(key, held)).isTrue();

            assertThat(h.deadLetters).hasSize(refused ? 0 : 1);
            assertThat(h.runs.read(key).orElseThrow().instances().get(key.runId("a", 0)).owedDeadLetter()).isEmpty();
            h.graphRuns.advanceAll(h.runs.read(key).orElseThrow());
            assertThat(h.runs.activeRuns()).doesNotContain(key);
        }
    }

    @Test
    void entriesOfInstancesNoLongerHeldAndOfRunsThatAreGoneAreDropped() throws Exception {
        try (RunHarness h = harness()) {
            String g = RunHarness.graphName("reapstale");
            String hash = h.oneNode(g);
            RedisKeys keys = new RedisKeys(h.prefix);
            RunKey pending = new RunKey(g, Partition.of("pending"));
            assertThat(h.graphRuns.startRun(hash, pending.partition()).started()).isTrue();
            RunKey gone = new RunKey(g, Partition.of("gone"));
            h.pool.zadd(keys.leases(pending), 1, entry(pending));
            h.pool.zadd(keys.leases(gone), 1, entry(gone));
            h.dispatches.clear();

            assertThat(h.reaper.pass()).isZero();

            assertThat(h.dispatches).isEmpty();
            assertThat(h.pool.zscore(keys.leases(pending), entry(pending))).isNull();
            assertThat(h.pool.zscore(keys.leases(gone), entry(gone))).isNull();
        }
    }

    @Test
    void aLeaseOutsideTheIndexIsReapedByTheReconcilersFullPass() throws Exception {
        try (RunHarness h = harness()) {
            String g = RunHarness.graphName("reapold");
            String hash = h.oneNode(g);
            RedisKeys keys = new RedisKeys(h.prefix);
            // claimed by a version before the index: its lease has no entry
            RunKey unindexed = startAndClaim(h, hash, g, "p", 0);
            h.pool.zrem(keys.leases(unindexed), entry(unindexed));
            h.dispatches.clear();

            assertThat(h.reaper.pass()).isZero();
            assertThat(h.dispatches).isEmpty();

            assertThat(h.reconciler(60_000).pass().reaped()).isEqualTo(1);
            assertThat(h.dispatches).singleElement()
                    .satisfies(d -> assertThat(d.identity().runKey()).isEqualTo(unindexed));
        }
    }
}
