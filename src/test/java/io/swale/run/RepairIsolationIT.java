package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.api.RunViews;
import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisKeys;
import io.swale.task.DelayedMover;
import io.swale.task.LeaseReaper;
import io.swale.task.ReconcilePass;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * One bad run (an undecodable record) does not stop a repair pass (issue 13, scope 4): the reconciler, the
 * lease reaper and the delayed mover each log, count and keep the failure with its run and go on to the next,
 * on a real redis-server.
 */
class RepairIsolationIT {
    private static void hset(RunHarness h, String key, String field, String value) {
        h.pool.hset(key, field, value);
    }

    private static void set(RunHarness h, String key, String value) {
        h.pool.set(key, value);
    }

    private static long dispatchesOf(RunHarness h, RunKey key) {
        return h.dispatches.stream().filter(d -> d.identity().runKey().equals(key)).count();
    }

    @Test
    void undecodableRunsBeforeHealthyOnesAreReportedAndThePassRepairsTheRest() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("poison");
            String hash = h.oneNode(g);
            RedisKeys keys = new RedisKeys(h.prefix);
            // the active index is in request order: both bad runs come first
            RunKey badInstance = new RunKey(g, Partition.of("p1"));
            RunKey badRecord = new RunKey(g, Partition.of("p2"));
            RunKey unsubmitted = new RunKey(g, Partition.of("p3"));
            RunKey expired = new RunKey(g, Partition.of("p4"));
            assertThat(h.runs.create(badInstance, GraphRunRecord.started(hash, 1))).isTrue();
            hset(h, keys.instances(badInstance), g + "-p1-ghost-r0", "{not json");
            assertThat(h.runs.create(badRecord, GraphRunRecord.started(hash, 2))).isTrue();
            set(h, keys.run(badRecord), "garbage");
            // a start that died after creating its run: the pass submits the root
            assertThat(h.runs.create(unsubmitted, GraphRunRecord.started(hash, 3))).isTrue();
            // a running attempt whose lease is over: the pass reaps it
            assertThat(h.runs.create(expired, GraphRunRecord.started(hash, 4))).isTrue();
            h.graphRuns.advanceAll(h.runs.read(expired).orElseThrow());
            assertThat(h.tasks.claim(expired, expired.runId("a", 0), 0, "gone")).isInstanceOf(TaskStore.Claim.Claimed.class);
            h.dispatches.clear();

            ReconcilePass pass = h.reconciler(60_000).pass();

            assertThat(pass.failed()).isEqualTo(2);
            assertThat(pass.submitted()).isEqualTo(1);
            assertThat(pass.reaped()).isEqualTo(1);
            assertThat(dispatchesOf(h, unsubmitted)).isEqualTo(1);
            assertThat(dispatchesOf(h, expired)).isEqualTo(1);
            assertThat(h.runs.read(expired).orElseThrow().instances().get(expired.runId("a", 0)).status())
                    .isEqualTo(InstanceStatus.PENDING);
            assertThat(h.repairFailures.get("reconciler")).hasValue(2);
            assertThat(h.runs.repairError(badRecord)).isPresent();
            assertThat(h.runs.repairError(badInstance)).get().satisfies(e -> {
                assertThat(e.pass()).isEqualTo("reconciler");
                assertThat(e.message()).contains("ghost");
            });

            // the API run view shows it
            RunViews views = new RunViews(h.definitionStore, h.catalog, h.runs, h.tasks);
            @SuppressWarnings("unchecked")
            Map<String, Object> shown = (Map<String, Object>) views.run(g, badInstance.partition()).get("repairError");
            assertThat(shown).containsEntry("pass", "reconciler").containsKey("at");
            assertThat((String) shown.get("message")).contains("ghost");

            // once the record is mended, the next pass repairs the run and the error is gone
            {
                var j = h.pool;
                j.hdel(keys.instances(badInstance), g + "-p1-ghost-r0");
            }
            assertThat(h.reconciler(60_000).pass().failed()).isEqualTo(1);
            assertThat(h.runs.repairError(badInstance)).isEmpty();
            assertThat(views.run(g, badInstance.partition()).get("repairError")).isNull();
            assertThat(h.runs.repairError(badRecord)).isPresent();
        }
    }

    @Test
    void theLeaseReaperGoesOnPastAnUndecodableInstance() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("reaper");
            String hash = h.oneNode(g);
            RedisKeys keys = new RedisKeys(h.prefix);
            RunKey bad = new RunKey(g, Partition.of("p1"));
            RunKey good = new RunKey(g, Partition.of("p2"));
            assertThat(h.graphRuns.startRun(hash, bad.partition()).started()).isTrue();
            assertThat(h.graphRuns.startRun(hash, good.partition()).started()).isTrue();
            // an instance whose state is not one the store knows, under a lease entry that has ended
            hset(h, keys.instances(bad), bad.runId("a", 0), "{\"state\":\"sideways\"}");
            h.pool.zadd(keys.leases(bad), 1, bad.id() + "|" + bad.runId("a", 0));
            assertThat(h.tasks.claim(good, good.runId("a", 0), 0, "gone")).isInstanceOf(TaskStore.Claim.Claimed.class);
            h.dispatches.clear();

            assertThat(h.reaper.pass()).isEqualTo(1);

            assertThat(dispatchesOf(h, good)).isEqualTo(1);
            assertThat(h.repairFailures.get("reaper")).hasValue(1);
            assertThat(h.runs.repairError(bad)).get().extracting(RunStore.RepairError::pass).isEqualTo("reaper");
        }
    }

    /**
     * The index gives the oldest expired leases first: those whose reap fails are passed over for a while, or they
     * would fill every batch of their shard and no lease after them would be reaped (until the reconciler's full
     * pass). Four runs in one shard, a reaper that reads two leases a shard.
     */
    @Test
    void leasesWhoseReapFailsArePassedOverSoThatThoseAfterThemAreReaped() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("reapfail");
            String hash = h.oneNode(g);
            RedisKeys keys = new RedisKeys(h.prefix);
            int shard = RedisKeys.shardOf(new RunKey(g, Partition.of("p0")));
            List<RunKey> runs = java.util.stream.IntStream.range(0, 10_000)
                    .mapToObj(i -> new RunKey(g, Partition.of("p" + i))).filter(k -> RedisKeys.shardOf(k) == shard)
                    .limit(4).toList();
            for (RunKey key : runs) {
                assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            }
            for (int i = 0; i < 3; i++) {
                RunKey bad = runs.get(i);
                hset(h, keys.instances(bad), bad.runId("a", 0), "{\"state\":\"sideways\"}");
                h.pool.zadd(keys.leases(bad), i + 1, bad.id() + "|" + bad.runId("a", 0));
            }
            RunKey good = runs.get(3);
            assertThat(h.tasks.claim(good, good.runId("a", 0), 0, "gone")).isInstanceOf(TaskStore.Claim.Claimed.class);
            h.dispatches.clear();
            LeaseReaper reaper = h.reaper(2);

            assertThat(reaper.pass()).as("the two oldest fail").isZero();
            assertThat(reaper.pass()).as("passed over: the next two are read").isEqualTo(1);

            assertThat(dispatchesOf(h, good)).isEqualTo(1);
            assertThat(h.repairFailures.get("reaper")).hasValue(3);
        }
    }

    @Test
    void theDelayedMoverGoesOnPastABadEntryAndKeepsARePark() throws Exception {
        AtomicReference<Runnable> atRelease = new AtomicReference<>(() -> { });
        try (RunHarness h = new RunHarness(r -> r, t -> RunHarness.before(TaskStore.class, t, (method, args) -> {
            if (method.equals("releaseDueOrEarly")) {
                atRelease.getAndSet(() -> { }).run();
            }
        }))) {
            String g = RunHarness.graphName("delayed");
            String hash = h.oneNode(g);
            RedisKeys keys = new RedisKeys(h.prefix);
            RunKey bad = new RunKey(g, Partition.of("p1"));
            RunKey good = new RunKey(g, Partition.of("p2"));
            h.graphRuns.startRun(hash, bad.partition());
            h.graphRuns.startRun(hash, good.partition());
            hset(h, keys.instances(bad), bad.runId("a", 0), "{not json");
            h.tasks.scheduleDelayed(bad, bad.runId("a", 0), 1);
            h.tasks.scheduleDelayed(good, good.runId("a", 0), 2);
            // the good instance is parked again (a new due time) while the mover is between its read and remove
            atRelease.set(() -> h.tasks.scheduleDelayed(good, good.runId("a", 0), 4_000_000_000_000L));

            new DelayedMover(h.tasks, h.dispatcher, h.failures).moveDue();

            assertThat(h.repairFailures.get("delayed")).hasValue(1);
            assertThat(h.runs.repairError(bad)).isPresent();
            {
                var j = h.pool;
                assertThat(j.zscore(keys.delayed(good), good.id() + "|" + good.runId("a", 0))).isEqualTo(4.0e12);
                // the bad entry waits a while, so entries that always fail cannot fill every read of the due ones
                assertThat(j.zscore(keys.delayed(bad), bad.id() + "|" + bad.runId("a", 0)))
                        .isGreaterThan((double) h.tasks.serverTimeMs());
            }
        }
    }

    /**
     * On a Cluster, the shard whose clock read the due entries may run ahead of the instance's: an instance whose
     * shard finds it not yet due keeps its entry, read again at the next pass. Was: the entry was removed, and the
     * instance waited for the reconciler.
     */
    @Test
    void theDelayedMoverKeepsTheEntryOfAnInstanceItsShardFindsNotYetDue() throws Exception {
        try (RunHarness h = new RunHarness(r -> r, t -> t)) {
            String g = RunHarness.graphName("early");
            String hash = h.oneNode(g);
            RedisKeys keys = new RedisKeys(h.prefix);
            RunKey key = new RunKey(g, Partition.of("p1"));
            h.graphRuns.startRun(hash, key.partition());
            String runId = key.runId("a", 0);
            long token = ((TaskStore.Claim.Claimed) h.tasks.claim(key, runId, 60_000, "w1")).token();
            assertThat(h.tasks.park(key, runId, token, 3_600_000, "boom", false, Optional.empty()))
                    .isInstanceOf(TaskStore.Park.Waiting.class);
            // as the clock of the shard that reads the due entries, an hour ahead, would find it
            h.tasks.scheduleDelayed(key, runId, 1);
            h.dispatches.clear();

            assertThat(new DelayedMover(h.tasks, h.dispatcher, h.failures).moveDue()).isZero();

            assertThat(h.pool.zscore(keys.delayed(key), key.id() + "|" + runId)).isEqualTo(1.0);
            assertThat(dispatchesOf(h, key)).isZero();
            assertThat(h.tasks.releaseDueOrEarly(key, runId)).isInstanceOf(TaskStore.DueRelease.Early.class);
        }
    }

    /** An outage is no fault of the run: the pass ends there, nothing is blamed on the run, the entry keeps its time. */
    @Test
    void anOutageEndsTheDelayedPassWithoutBlamingTheRun() throws Exception {
        try (RunHarness h = new RunHarness(r -> r, t -> RunHarness.before(TaskStore.class, t, (method, args) -> {
            if (method.equals("releaseDueOrEarly")) {
                throw new JedisConnectionException("Failed to connect to any host resolved for DNS name");
            }
        }))) {
            String g = RunHarness.graphName("outage");
            String hash = h.oneNode(g);
            RunKey key = new RunKey(g, Partition.of("p1"));
            h.graphRuns.startRun(hash, key.partition());
            h.tasks.scheduleDelayed(key, key.runId("a", 0), 1);

            assertThatThrownBy(() -> new DelayedMover(h.tasks, h.dispatcher, h.failures).moveDue())
                    .isInstanceOf(JedisConnectionException.class);

            assertThat(h.repairFailures).doesNotContainKey("delayed");
            assertThat(h.runs.repairError(key)).isEmpty();
            {
                var j = h.pool;
                assertThat(j.zscore(new RedisKeys(h.prefix).delayed(key), key.id() + "|" + key.runId("a", 0)))
                        .isEqualTo(1.0);
            }
        }
    }
}
