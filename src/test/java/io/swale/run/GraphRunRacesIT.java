package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.InstanceStatus;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The races between a rerun, a settle, a cancel and a reconciler pass (issue 13), each reproduced in a fixed
 * order on a real redis-server: the second step is made to happen exactly where a concurrent one could, by
 * calling the steps in that order or by a store decorator that runs it at that point.
 */
class GraphRunRacesIT {

    private static TaskInstance instance(RunHarness h, RunKey key, String runId) {
        return h.runs.read(key).orElseThrow().instances().get(runId);
    }

    /** Starts a run of the chain a → b named {@code g} and records a succeeded; b is not submitted yet. */
    private static RunKey startedWithASucceeded(RunHarness h, String g) {
        String hash = h.chain(g);
        RunKey key = h.key(g);
        assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
        h.finish(key, "a", 0, NodeStatus.SUCCEEDED, hash);
        return key;
    }

    /** A harness whose task store runs {@code atSubmit}'s step, once, ahead of the next submission. */
    private static RunHarness runningAtSubmit(AtomicReference<Runnable> atSubmit) throws java.io.IOException {
        return new RunHarness(r -> r, t -> RunHarness.before(TaskStore.class, t, (method, args) -> {
            if (method.equals("submit")) {
                atSubmit.getAndSet(() -> { }).run();
            }
        }));
    }

    /**
     * Spec §7.8 step 7: a rerun whose run id is already known answers Active, whatever inputs the earlier rerun
     * at that count was submitted with (an input mismatch is a listener's fault, §7.12). Was: refused, recorded.
     */
    @Test
    void aRerunWhileAnEarlierRerunRunsOnOtherInputsAnswersActive() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("rerunactive");
            String hash = h.chain(g, "all_done");
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            h.finish(key, "a", 0, NodeStatus.FAILED, hash);
            h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("b"));
            h.finish(key, "b", 0, NodeStatus.FAILED, hash);
            // b-r1 is submitted on `a failed`; then a succeeds at r1, so b's inputs now differ
            assertThat(h.reruns.rerun(g, key.partition(), "b")).isEqualTo(new RerunOutcome.Submitted(key.runId("b", 1)));
            assertThat(h.reruns.rerun(g, key.partition(), "a")).isEqualTo(new RerunOutcome.Submitted(key.runId("a", 1)));
            h.finish(key, "a", 1, NodeStatus.SUCCEEDED, hash);

            assertThat(h.reruns.rerun(g, key.partition(), "b")).isEqualTo(new RerunOutcome.Active(key.runId("b", 1)));
            assertThat(instance(h, key, key.runId("b", 1)).status()).isEqualTo(InstanceStatus.PENDING);
        }
    }

    @Test
    void aSettleFromAViewReadBeforeARerunLeavesTheRerunRunning() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("settle");
            RunKey key = h.runWithFailedRoot(g);
            RunView before = h.runs.read(key).orElseThrow();

            RerunOutcome rerun = h.reruns.rerun(g, key.partition(), "a");
            GraphRuns.Advanced late = h.graphRuns.advance(before, List.of("a", "b"));

            assertThat(rerun).isEqualTo(new RerunOutcome.Submitted(key.runId("a", 1)));
            assertThat(late.settled()).isFalse();
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);
            assertThat(instance(h, key, key.runId("a", 1)).status()).isEqualTo(InstanceStatus.PENDING);
        }
    }

    @Test
    void aRerunWhoseRunSettlesBeforeItsSubmissionReadsAgainAndReactivatesTheRun() throws Exception {
        AtomicReference<Runnable> atSubmit = new AtomicReference<>(() -> { });
        try (RunHarness h = runningAtSubmit(atSubmit)) {
            String g = RunHarness.graphName("rerun");
            RunKey key = h.runWithFailedRoot(g);
            // the settle lands after the rerun read the run and before its instance is written
            atSubmit.set(() -> assertThat(
                    h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("a", "b")).settled()).isTrue());

            RerunOutcome rerun = h.reruns.rerun(g, key.partition(), "a");

            assertThat(rerun).isEqualTo(new RerunOutcome.Submitted(key.runId("a", 1)));
            RunView after = h.runs.read(key).orElseThrow();
            assertThat(after.run().state()).isEqualTo(RunState.ACTIVE);
            assertThat(after.instances().get(key.runId("a", 1)).status()).isEqualTo(InstanceStatus.PENDING);
            assertThat(h.runs.activeRuns()).contains(key);
        }
    }

    /**
     * Spec §10: requests apply in arrival order. A cancel that comes after a rerun made the run active, and commits
     * before the rerun's submission, stands. Was: the rerun read the cancelled run again and reactivated it.
     */
    @Test
    void aCancelAfterARerunReactivatedTheRunStandsAndTheRerunIsNotApplied() throws Exception {
        AtomicReference<Runnable> atSubmit = new AtomicReference<>(() -> { });
        try (RunHarness h = runningAtSubmit(atSubmit)) {
            String g = RunHarness.graphName("rerunthencancel");
            RunKey key = h.runWithFailedRoot(g);
            assertThat(h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("a", "b")).settled()).isTrue();
            atSubmit.set(() -> assertThat(h.cancellation.cancel(g, key.partition())).isTrue());

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> h.reruns.rerun(g, key.partition(), "a"))
                    .isInstanceOf(io.swale.task.SwaleException.CancelledMeanwhile.class)
                    .isInstanceOf(io.swale.task.SwaleException.Permanent.class);

            RunView after = h.runs.read(key).orElseThrow();
            assertThat(after.run().state()).isEqualTo(RunState.CANCELLED);
            assertThat(after.instances()).doesNotContainKey(key.runId("a", 1));
            assertThat(h.runs.activeRuns()).doesNotContain(key);
        }
    }

    /**
     * A succeeded node's rerun commits its request record with its expectations (so that a retry finds it even when
     * the reconciler submitted the node first); a cancel that overtakes it after that finds it applied. Both stand,
     * in arrival order, and the rerun answers what it recorded. Was: CancelledMeanwhile, whose refusal could not be
     * recorded over the answer already there, so the first answer came back marked replayed.
     */
    @Test
    void aCancelAfterASucceededNodesRerunCommittedItsAnswerLeavesThatAnswer() throws Exception {
        AtomicReference<Runnable> atSubmit = new AtomicReference<>(() -> { });
        try (RunHarness h = runningAtSubmit(atSubmit)) {
            String g = RunHarness.graphName("rerunanswered");
            String hash = h.chain(g);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            h.finish(key, "a", 0, NodeStatus.SUCCEEDED, hash);
            h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("b"));
            h.finish(key, "b", 0, NodeStatus.SUCCEEDED, hash);
            assertThat(h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("b")).settled()).isTrue();
            atSubmit.set(() -> assertThat(h.cancellation.cancel(g, key.partition())).isTrue());
            io.swale.store.redis.RedisRequestStore requests = new io.swale.store.redis.RedisRequestStore(h.pool, h.prefix);
            io.swale.record.AdminRequest.Rerun request = new io.swale.record.AdminRequest.Rerun(g, key.partition(), "a");

            RerunOutcome rerun = h.reruns.rerun(g, key.partition(), "a", runId -> java.util.Optional.of(
                    new TaskStore.RequestWrite(new io.swale.record.RequestRecord("req-1", request, 0L,
                            new io.swale.record.RequestOutcome.Rerun(runId), false))));

            assertThat(rerun).isEqualTo(new RerunOutcome.Submitted(key.runId("a", 1)));
            assertThat(requests.get("req-1").orElseThrow().outcome())
                    .isEqualTo(new io.swale.record.RequestOutcome.Rerun(key.runId("a", 1)));
            RunView after = h.runs.read(key).orElseThrow();
            assertThat(after.run().state()).isEqualTo(RunState.CANCELLED);
            assertThat(after.instances()).doesNotContainKey(key.runId("a", 1));
        }
    }

    /**
     * Spec §7.8 and §10: a rerun reactivates a cancelled run, and requests apply in arrival order. A rerun that
     * comes after a cancel committed, and before the cancel reached the run's instances, stands with its instance.
     * Was: the cancel read the run again, found the rerun's instance and cancelled it.
     */
    @Test
    void aRerunAfterACancelCommittedKeepsItsInstanceFromThatCancel() throws Exception {
        AtomicReference<Runnable> atRead = new AtomicReference<>(() -> { });
        java.util.concurrent.atomic.AtomicBoolean settled = new java.util.concurrent.atomic.AtomicBoolean();
        try (RunHarness h = new RunHarness(r -> RunHarness.before(RunStore.class, r, (method, args) -> {
            if (method.equals("compareAndSettle")) {
                settled.set(true);
            } else if (method.equals("read") && settled.get()) {
                atRead.getAndSet(() -> { }).run();
            }
        }), t -> t)) {
            String g = RunHarness.graphName("cancelthenrerun");
            RunKey key = startedWithASucceeded(h, g);
            // after the cancel's commit, before it reads the run again for its instances
            atRead.set(() -> assertThat(h.reruns.rerun(g, key.partition(), "a"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("a", 1))));

            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();

            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);
            assertThat(instance(h, key, key.runId("a", 1)).status()).isEqualTo(InstanceStatus.PENDING);
            // and a reconciler pass from a view read while the run was cancelled leaves it too
            RunView now = h.runs.read(key).orElseThrow();
            RunView stale = new RunView(key, now.version(),
                    now.run().withState(RunState.CANCELLED, java.util.Optional.of(1L)), now.nodeRecords(),
                    now.instances(), now.growths());
            assertThat(h.cancellation.cancelInstances(stale)).isZero();
            assertThat(instance(h, key, key.runId("a", 1)).status()).isEqualTo(InstanceStatus.PENDING);
        }
    }

    /**
     * Spec §7.9 and §10: a cancel that committed first ends every instance it found, even when a rerun reactivates
     * the run before the cancel reached them (its instance step failed, or the rerun overtook it). The rerun finishes
     * the cancel while the run still reads cancelled. Was: the rerun's put made the run active, the cancel's own
     * step and the reconciler (which re-cancels only cancelled runs) were refused, and the cancelled run's pending
     * instance was claimed and its running one kept its result: the run could settle complete.
     */
    @Test
    void aRerunOfACancelledRunFirstEndsTheInstancesTheCancelHadNotReached() throws Exception {
        try (RunHarness h = new RunHarness(r -> r, t -> t)) {
            String g = RunHarness.graphName("cancelleftovers");
            String hash = h.publish("""
                    [graph]
                    name = "%s"
                    [[node]]
                    name = "a"
                    operator = "noop"
                    [[node]]
                    name = "queued"
                    operator = "noop"
                    [[node]]
                    name = "busy"
                    operator = "noop"
                    """.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            h.finish(key, "a", 0, NodeStatus.FAILED, hash);
            TaskStore.Claim claim = h.tasks.claim(key, key.runId("busy", 0), 60_000, "w");
            assertThat(claim).isInstanceOf(TaskStore.Claim.Claimed.class);
            // the cancel committed on the run record and never reached the instances
            RunView before = h.runs.read(key).orElseThrow();
            assertThat(h.runs.compareAndSettle(key, before.version(),
                    before.run().withState(RunState.CANCELLED, java.util.Optional.of(1L)))).isTrue();

            assertThat(h.reruns.rerun(g, key.partition(), "a"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("a", 1)));

            RunView after = h.runs.read(key).orElseThrow();
            assertThat(after.run().state()).isEqualTo(RunState.ACTIVE);
            assertThat(instance(h, key, key.runId("a", 1)).status()).isEqualTo(InstanceStatus.PENDING);
            assertThat(instance(h, key, key.runId("queued", 0)).status()).isEqualTo(InstanceStatus.CANCELLED);
            assertThat(after.nodeRecords().get("t:queued").status()).isEqualTo(NodeStatus.CANCELLED);
            assertThat(h.tasks.claim(key, key.runId("queued", 0), 60_000, "w"))
                    .isNotInstanceOf(TaskStore.Claim.Claimed.class);
            // the running attempt was told to stop: its success is not kept
            assertThat(instance(h, key, key.runId("busy", 0)).status()).isEqualTo(InstanceStatus.CANCELLING);
            NodeRecord succeeded = new NodeRecord(NodeStatus.SUCCEEDED, key.runId("busy", 0), hash, 0,
                    h.clock.millis(), java.util.Optional.empty(), false, java.util.Optional.empty());
            assertThat(h.tasks.finish(key, new RecordField("busy", java.util.Optional.empty()),
                    ((TaskStore.Claim.Claimed) claim).token(), succeeded)).isEqualTo(TaskStore.Finish.CANCELLING);
        }
    }

    /**
     * Spec §14 #4: a lost compare is retried. A cancel whose compare a rerun's put overtook reads the run again,
     * finds it still active and cancels it. Was: answered false, which a request records as "no active run".
     */
    @Test
    void aCancelWhoseCompareARerunOvertookReadsAgainAndCancels() throws Exception {
        AtomicReference<Runnable> atSettle = new AtomicReference<>(() -> { });
        try (RunHarness h = new RunHarness(r -> RunHarness.before(RunStore.class, r, (method, args) -> {
            if (method.equals("compareAndSettle")) {
                atSettle.getAndSet(() -> { }).run();
            }
        }), t -> t)) {
            String g = RunHarness.graphName("cancelcontended");
            RunKey key = startedWithASucceeded(h, g);
            // between the cancel's read and its commit, a rerun of a puts its expectations
            atSettle.set(() -> assertThat(h.reruns.rerun(g, key.partition(), "a"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("a", 1))));

            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();

            RunView after = h.runs.read(key).orElseThrow();
            assertThat(after.run().state()).isEqualTo(RunState.CANCELLED);
            assertThat(after.run().expectedReruns()).containsEntry("a", 1L);
            assertThat(instance(h, key, key.runId("a", 1)).status()).isEqualTo(InstanceStatus.CANCELLED);
        }
    }

    @Test
    void rerunAndSettleRacingNeverLeaveASubmittedRerunInASettledRun() throws Exception {
        try (RunHarness h = new RunHarness()) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                int submitted = 0;
                for (int i = 0; i < 40; i++) {
                    String g = RunHarness.graphName("race");
                    RunKey key = h.runWithFailedRoot(g);
                    CyclicBarrier start = new CyclicBarrier(2);
                    Future<RerunOutcome> rerun = pool.submit(() -> {
                        start.await();
                        return h.reruns.rerun(g, key.partition(), "a");
                    });
                    Future<GraphRuns.Advanced> settle = pool.submit(() -> {
                        RunView view = h.runs.read(key).orElseThrow();
                        start.await();
                        return h.graphRuns.advance(view, List.of("a", "b"));
                    });
                    settle.get();
                    RerunOutcome outcome = rerun.get();
                    RunView after = h.runs.read(key).orElseThrow();
                    // whatever the order, a rerun answered submitted leaves an active run with r1 pending
                    assertThat(outcome).isEqualTo(new RerunOutcome.Submitted(key.runId("a", 1)));
                    assertThat(after.run().state()).as("run %s", key).isEqualTo(RunState.ACTIVE);
                    assertThat(after.instances().get(key.runId("a", 1)).status()).isEqualTo(InstanceStatus.PENDING);
                    assertThat(h.runs.activeRuns()).contains(key);
                    submitted++;
                }
                assertThat(submitted).isEqualTo(40);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void anAdvanceFromAViewReadBeforeACancelSubmitsNothing() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("cancel");
            RunKey key = startedWithASucceeded(h, g);
            RunView before = h.runs.read(key).orElseThrow();

            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();
            GraphRuns.Advanced late = h.graphRuns.advance(before, List.of("b"));

            assertThat(late.submitted()).isZero();
            assertThat(h.runs.read(key).orElseThrow().instances()).doesNotContainKey(key.runId("b", 0));
            assertThat(h.dispatches).noneMatch(d -> d.identity().node().equals("b"));
        }
    }

    @Test
    void anInstanceSubmittedBetweenACancelsReadAndItsCommitIsCancelledWithTheRun() throws Exception {
        AtomicReference<Runnable> beforeSettle = new AtomicReference<>(() -> { });
        try (RunHarness h = new RunHarness(r -> RunHarness.before(RunStore.class, r, (method, args) -> {
            if (method.equals("compareAndSettle")) {
                beforeSettle.getAndSet(() -> { }).run();
            }
        }), t -> t)) {
            String g = RunHarness.graphName("cancelgap");
            RunKey key = startedWithASucceeded(h, g);
            // the advance after a's event lands after the cancel read the run, before it committed
            beforeSettle.set(() -> assertThat(h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("b"))
                    .submitted()).isEqualTo(1));

            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();

            RunView after = h.runs.read(key).orElseThrow();
            assertThat(after.run().state()).isEqualTo(RunState.CANCELLED);
            // b ends cancelled with the run, not pending until a reconciler pass
            assertThat(after.nodeRecords()).as("records").containsKey("t:b");
            assertThat(after.nodeRecords().get("t:b").status()).isEqualTo(NodeStatus.CANCELLED);
            assertThat(after.nodeRecords().get("t:b").runId()).isEqualTo(key.runId("b", 0));
        }
    }

    @Test
    void aPassThatReadARunBeforeARerunReactivatedItLeavesItInTheActiveIndex() throws Exception {
        AtomicReference<Runnable> afterRead = new AtomicReference<>(() -> { });
        AtomicBoolean read = new AtomicBoolean();
        try (RunHarness h = new RunHarness(r -> RunHarness.before(RunStore.class, r, (method, args) -> {
            // the first store call of the pass after its read: the rerun lands between read and drop
            if (read.get() && !method.equals("readEach")) {
                read.set(false);
                afterRead.getAndSet(() -> { }).run();
            }
            if (method.equals("readEach")) {
                read.set(true);
            }
        }), t -> t)) {
            String g = RunHarness.graphName("index");
            RunKey key = h.runWithFailedRoot(g);
            assertThat(h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("a", "b")).settled()).isTrue();
            h.runs.markActive(key); // still listed, as when the settle's own drop had not happened yet
            List<RerunOutcome> reruns = new ArrayList<>();
            afterRead.set(() -> reruns.add(h.reruns.rerun(g, key.partition(), "a")));

            h.reconciler(60_000).pass();

            assertThat(reruns).containsExactly(new RerunOutcome.Submitted(key.runId("a", 1)));
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);
            assertThat(h.runs.activeRuns()).contains(key);
        }
    }

    @Test
    void reconcilerPassesOverAStillPendingInstanceDispatchItAgainWithBackoff() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("backlog");
            String hash = h.chain(g);
            RunKey key = h.key(g);
            h.graphRuns.startRun(hash, key.partition());
            String runId = key.runId("a", 0);
            h.dispatches.clear();
            long stale = 60_000;
            String instances = new io.swale.store.redis.RedisKeys(h.prefix).instances(key);
            List<Integer> dispatchedAt = new ArrayList<>();
            Reconciler reconciler = h.reconciler(stale);
            // 12 passes, one per stale interval, while nobody claims the instance (a backlog waiting for slots)
            for (int pass = 1; pass <= 12; pass++) {
                {
                    var j = h.pool;
                    var o = (tools.jackson.databind.node.ObjectNode) io.swale.record.RecordCodec.JSON
                            .readTree(j.hget(instances, runId));
                    o.put("dispatched", o.get("dispatched").asLong() - stale);
                    j.hset(instances, runId, io.swale.record.RecordCodec.text(o));
                }
                int before = h.dispatches.size();
                assertThat(reconciler.pass().failed()).isZero();
                if (h.dispatches.size() > before) {
                    dispatchedAt.add(pass);
                }
            }
            // waits of 1, 2 and 4 intervals (the next one 8): 3 dispatches in 12 passes, not 12
            assertThat(dispatchedAt).containsExactly(1, 3, 7);
            assertThat(h.dispatches).allMatch(d -> d.identity().runId().equals(runId));
        }
    }

    @Test
    void aSettledIdleRunStillLeavesTheIndex() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("idle");
            RunKey key = h.runWithFailedRoot(g);
            assertThat(h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("a", "b")).settled()).isTrue();
            h.runs.markActive(key);

            h.reconciler(60_000).pass();

            assertThat(h.runs.activeRuns()).doesNotContain(key);
        }
    }
}
