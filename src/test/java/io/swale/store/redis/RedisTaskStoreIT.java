package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.AdminRequest;
import io.swale.record.GraphRunRecord;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import io.swale.record.RunState;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.store.InstanceStatus;
import io.swale.store.PendingInstance;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunVersion;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.node.JsonNodeFactory;

/** The task-instance scripts and the run compare-and-put against a real redis-server. */
@WithTestRedis
class RedisTaskStoreIT {
    static UnifiedJedis pool;
    private static final AtomicLong SEQ = new AtomicLong();

    private RedisTaskStore tasks;
    private RedisRunStore runs;
    private RunKey key;

    @BeforeAll
    static void connect(UnifiedJedis redis) {
        pool = redis;
    }

    @BeforeEach
    void stores() {
        tasks = new RedisTaskStore(pool, "t");
        runs = new RedisRunStore(pool, "t");
        key = new RunKey("g" + SEQ.incrementAndGet(), Partition.of("p"));
    }

    private String runId() {
        return key.runId("n", 0);
    }

    private void submit(long maxAttempts) {
        assertThat(tasks.submit(key, runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", maxAttempts),
                input("noop"))).isEqualTo(TaskStore.Submit.NEW);
    }

    @Test
    void submissionIsIdempotentOnTheRunIdAndRefusesAnotherInputWhileActive() {
        submit(1);
        assertThat(tasks.submit(key, runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", 1),
                input("noop"))).isEqualTo(TaskStore.Submit.EXISTS);
        assertThat(tasks.submit(key, runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", 1),
                input("other"))).isEqualTo(TaskStore.Submit.MISMATCH);
    }

    @Test
    void aSubmittedInstanceIsStampedWhateverTheLayoutOfItsText() {
        submit(1);
        String stored = pool.hget(new RedisKeys("t").instances(key), runId());
        // the codec's flat text, appended to rather than decoded and written again
        assertThat(stored).startsWith(InstanceCodec.pending(new PendingInstance("n", Optional.empty(), "h", 0, "default", 1))
                .replaceFirst("}$", ",\"dispatched\":")).matches(".*,\"submitted_us\":\"\\d{16}\"}");
        assertThat(InstanceCodec.decode(runId(), stored).dispatchedMs()).isPositive();

        // a text in another layout is decoded and stamped the same way
        String spaced = key.runId("spaced", 0);
        RedisScripts scripts = new RedisScripts();
        assertThat(scripts.submit.call(pool, java.util.List.of(new RedisKeys("t").instances(key),
                new RedisKeys("t").inputs(key), new RedisKeys("t").run(key)), java.util.List.of(spaced,
                "{ \"state\": \"pending\", \"node\": \"spaced\", \"max\": 1 }", "{}"))).isEqualTo("new");
        var decoded = InstanceCodec.decode(spaced, pool.hget(new RedisKeys("t").instances(key), spaced));
        assertThat(decoded.status()).isEqualTo(InstanceStatus.PENDING);
        assertThat(decoded.dispatchedMs()).isPositive();
        assertThat(pool.hget(new RedisKeys("t").instances(key), spaced)).matches(".*\"submitted_us\":\"\\d{16}\".*");
    }

    @Test
    void aClaimAskedAgainUnderItsIdAnswersTheAttemptItStartedAndAnyOtherIsRefused() {
        submit(1);
        TaskStore.Claim.Claimed first = (TaskStore.Claim.Claimed) tasks.claim(key, runId(), 60_000, "w1", "c1");
        assertThat(first.attempt()).isEqualTo(1);

        long firstLease = leaseUntil();
        // its reply lost, the same worker asks again with the same id: the same attempt, token and start, and a
        // lease that runs anew from the repeat, as the worker counts it
        assertThat(tasks.claim(key, runId(), 120_000, "w1", "c1")).isInstanceOfSatisfying(TaskStore.Claim.Claimed.class,
                again -> {
                    assertThat(again.token()).isEqualTo(first.token());
                    assertThat(again.attempt()).isEqualTo(1);
                    assertThat(again.nowMs()).isEqualTo(first.nowMs());
                    assertThat(again.input()).isEqualTo(first.input());
                });
        assertThat(leaseUntil()).isGreaterThanOrEqualTo(firstLease + 60_000);
        // a redelivery under another id, another worker with that id, or no id at all is refused as before
        assertThat(tasks.claim(key, runId(), 60_000, "w1", "c2")).isEqualTo(new TaskStore.Claim.Refused("running"));
        assertThat(tasks.claim(key, runId(), 60_000, "w2", "c1")).isEqualTo(new TaskStore.Claim.Refused("running"));
        assertThat(tasks.claim(key, runId(), 60_000, "w1")).isEqualTo(new TaskStore.Claim.Refused("running"));
        assertThat(tasks.claimAll(java.util.List.of(new TaskStore.ClaimRequest(key, runId(), "c1"),
                new TaskStore.ClaimRequest(key, runId(), "c2")), 60_000, "w1"))
                .satisfiesExactly(c -> assertThat(c).isInstanceOf(TaskStore.Claim.Claimed.class),
                        c -> assertThat(c).isEqualTo(new TaskStore.Claim.Refused("running")));
    }

    private long leaseUntil() {
        return runs.instances(java.util.List.of(key)).get(key).getFirst().leaseUntilMs().orElseThrow();
    }

    @Test
    void aClaimIdIsNoLongerHonouredOnceItsLeaseExpired() {
        submit(1);
        assertThat(tasks.claim(key, runId(), 1, "w1", "c1")).isInstanceOf(TaskStore.Claim.Claimed.class);
        // a lease of 1 ms runs out with Redis's next millisecond; asked again, the claim changes nothing
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                .until(() -> tasks.claim(key, runId(), 60_000, "w1", "c1"),
                        c -> c.equals(new TaskStore.Claim.Refused("running")));
    }

    @Test
    void claimsOfOnePollAreEachAtomicAndAnswerInOrder() {
        submit(1);
        RunKey other = new RunKey("g" + SEQ.incrementAndGet(), Partition.of("q"));
        String otherId = other.runId("m", 0);
        assertThat(tasks.submit(other, otherId, new PendingInstance("m", Optional.empty(), "h", 0, "default", 1),
                input("noop"))).isEqualTo(TaskStore.Submit.NEW);

        var claims = tasks.claimAll(java.util.List.of(new TaskStore.ClaimRequest(key, runId()),
                new TaskStore.ClaimRequest(other, otherId), new TaskStore.ClaimRequest(key, key.runId("nobody", 0)),
                new TaskStore.ClaimRequest(key, runId())), 60_000, "w1");

        assertThat(claims).hasSize(4);
        assertThat(claims.get(0)).isInstanceOf(TaskStore.Claim.Claimed.class);
        assertThat(claims.get(1)).isInstanceOf(TaskStore.Claim.Claimed.class);
        assertThat(claims.get(2)).isInstanceOf(TaskStore.Claim.Refused.class);
        // the same dispatch twice in one poll: the second finds the instance running
        assertThat(claims.get(3)).isEqualTo(new TaskStore.Claim.Refused("running"));
        assertThat(((TaskStore.Claim.Claimed) claims.get(1)).attempt()).isEqualTo(1);
    }

    @Test
    void anUnreadableStepStateFailsOnlyItsOwnClaimOfAPoll() {
        submit(1);
        RunKey other = new RunKey("g" + SEQ.incrementAndGet(), Partition.of("q"));
        String otherId = other.runId("m", 0);
        tasks.submit(other, otherId, new PendingInstance("m", Optional.empty(), "h", 0, "default", 1), input("noop"));
        {
            var jedis = pool;
            jedis.hset(new RedisKeys("t").inputs(key), "st:" + runId(), "{not json");
        }

        var claims = tasks.claimAll(java.util.List.of(new TaskStore.ClaimRequest(key, runId()),
                new TaskStore.ClaimRequest(other, otherId)), 60_000, "w1");

        // the poll's claims decode together: the bad one reads as no input (its attempt then fails), the other is whole
        assertThat(((TaskStore.Claim.Claimed) claims.get(0)).input()).isEmpty();
        assertThat(((TaskStore.Claim.Claimed) claims.get(1)).input()).isPresent();
    }

    @Test
    void anInstanceTheClaimScriptCannotReadRefusesOnlyItsOwnClaimOfAPoll() {
        submit(1);
        RunKey other = new RunKey("g" + SEQ.incrementAndGet(), Partition.of("q"));
        String otherId = other.runId("m", 0);
        tasks.submit(other, otherId, new PendingInstance("m", Optional.empty(), "h", 0, "default", 1), input("noop"));
        {
            var jedis = pool;
            jedis.hset(new RedisKeys("t").instances(key), runId(), "{not json");
        }

        var claims = tasks.claimAll(java.util.List.of(new TaskStore.ClaimRequest(key, runId()),
                new TaskStore.ClaimRequest(other, otherId)), 60_000, "w1");

        // the other claim is committed in the same pipeline: it must reach its worker, not fail with the poll
        assertThat(claims.get(0)).isInstanceOfSatisfying(TaskStore.Claim.Refused.class,
                r -> assertThat(r.state()).startsWith("error: "));
        assertThat(claims.get(1)).isInstanceOf(TaskStore.Claim.Claimed.class);
    }

    @Test
    void onlyOneClaimWinsAndAStaleTokenCannotSettle() {
        submit(2);
        TaskStore.Claim first = tasks.claim(key, runId(), 60_000, "w1");
        TaskStore.Claim second = tasks.claim(key, runId(), 60_000, "w1");

        assertThat(first).isInstanceOf(TaskStore.Claim.Claimed.class);
        assertThat(second).isEqualTo(new TaskStore.Claim.Refused("running"));
        long token = ((TaskStore.Claim.Claimed) first).token();
        assertThat(tasks.finish(key, N, token + 1, record(runId(), 0, "succeeded")))
                .isEqualTo(TaskStore.Finish.LOST);
        assertThat(tasks.finish(key, N, token, record(runId(), 0, "succeeded"))).isEqualTo(TaskStore.Finish.OK);
        assertThat(tasks.finish(key, N, token + 1, record(runId(), 0, "succeeded"))).isEqualTo(TaskStore.Finish.LOST);
        assertThat(tasks.claim(key, runId(), 60_000, "w1")).isEqualTo(new TaskStore.Claim.Refused("succeeded"));
    }

    /** A settle retried after its first try committed (the answer was lost) is recognised and applied once. */
    @Test
    void aRetriedFinishIsRecognisedAndWritesNothingAgain() {
        submit(2);
        long token = ((TaskStore.Claim.Claimed) tasks.claim(key, runId(), 60_000, "w1")).token();
        assertThat(tasks.finish(key, N, token, record(runId(), 0, "succeeded"))).isEqualTo(TaskStore.Finish.OK);
        String written = rawRecord(key);

        assertThat(tasks.finish(key, N, token, record(runId(), 0, "succeeded"))).isEqualTo(TaskStore.Finish.SETTLED);
        assertThat(tasks.finish(key, N, token, record(runId(), 0, "failed"))).isEqualTo(TaskStore.Finish.LOST);
        assertThat(rawRecord(key)).isEqualTo(written);
        assertThat(tasks.history(key, runId())).hasSize(1);
    }

    @Test
    void aRetriedParkAnswersTheSameDueAndCountsTheAttemptOnce() {
        submit(3);
        long token = ((TaskStore.Claim.Claimed) tasks.claim(key, runId(), 60_000, "w1")).token();
        TaskStore.Park first = tasks.park(key, runId(), token, 60_000, "boom", true,
                Optional.of(JsonNodeFactory.instance.numberNode(1)));
        TaskStore.Park again = tasks.park(key, runId(), token, 60_000, "boom", true,
                Optional.of(JsonNodeFactory.instance.numberNode(2)));

        assertThat(first).isInstanceOf(TaskStore.Park.Waiting.class).isEqualTo(again);
        assertThat(tasks.history(key, runId())).hasSize(1);
        // entered in the delayed set by the park itself, due when the park says
        assertThat(pool.zscore(new RedisKeys("t").delayed(key), key.id() + "|" + runId()))
                .isEqualTo((double) ((TaskStore.Park.Waiting) first).dueMs());
        assertThat(tasks.park(key, runId(), token + 1, 0, "boom", false, Optional.empty()))
                .isEqualTo(new TaskStore.Park.Lost());
    }

    @Test
    void aNodeRecordIsNeverRegressed() {
        RunKey k = key;
        String r1 = k.runId("n", 1);
        tasks.submit(k, r1, new PendingInstance("n", Optional.empty(), "h", 1, "default", 1), input(""));
        long t1 = ((TaskStore.Claim.Claimed) tasks.claim(k, r1, 60_000, "w1")).token();
        tasks.finish(k, N, t1, record(r1, 1, "succeeded"));
        // A late r0 termination must not overwrite r1's record.
        submit(1);
        long t0 = ((TaskStore.Claim.Claimed) tasks.claim(k, runId(), 60_000, "w1")).token();
        assertThat(tasks.finish(k, N, t0, record(runId(), 0, "failed"))).isEqualTo(TaskStore.Finish.OK);

        String stored = rawRecord(k);
        assertThat(stored).contains("\"rerun\":1");
        assertThat(NodeRecordCodec.decode("t:n", stored.getBytes(StandardCharsets.UTF_8)).rerun()).isEqualTo(1);
    }

    @Test
    void cancelEndsPendingAtOnceAndFlagsRunning() {
        submit(1);
        assertThat(tasks.cancel(key, N, record(runId(), 0, "cancelled"))).isEqualTo(TaskStore.Cancel.CANCELLED);
        assertThat(tasks.claim(key, runId(), 60_000, "w1")).isEqualTo(new TaskStore.Claim.Refused("cancelled"));

        RunKey other = new RunKey(key.graph() + "x", key.partition());
        String id = other.runId("n", 0);
        tasks.submit(other, id, new PendingInstance("n", Optional.empty(), "h", 0, "default", 1), input(""));
        long token = ((TaskStore.Claim.Claimed) tasks.claim(other, id, 60_000, "w1")).token();
        assertThat(tasks.cancel(other, N, record(id, 0, "cancelled"))).isEqualTo(TaskStore.Cancel.CANCELLING);
        assertThat(tasks.cancel(other, N, record(id, 0, "cancelled"))).as("asked again: nothing new")
                .isEqualTo(TaskStore.Cancel.ALREADY_CANCELLING);
        assertThat(tasks.heartbeat(other, id, token, 60_000)).isEqualTo(TaskStore.Heartbeat.CANCELLING);
        assertThat(tasks.finish(other, N, token, record(id, 0, "succeeded"))).isEqualTo(TaskStore.Finish.CANCELLING);
        assertThat(tasks.finish(other, N, token, record(id, 0, "cancelled"))).isEqualTo(TaskStore.Finish.OK);
    }

    @Test
    void aRunningInstanceCancelledForAReasonEndsWithThatReasonNotItsHoldersText() {
        submit(1);
        long token = ((TaskStore.Claim.Claimed) tasks.claim(key, runId(), 60_000, "w1")).token();
        String reason = "node `n` is no longer part of the run's graph (the growth that added it was replaced)";
        assertThat(tasks.cancel(key, N, withError(record(runId(), 0, "cancelled"), reason)))
                .isEqualTo(TaskStore.Cancel.CANCELLING);
        // a later cancel for another reason does not replace the first one's
        assertThat(tasks.cancel(key, N, withError(record(runId(), 0, "cancelled"), "the graph run was cancelled")))
                .isEqualTo(TaskStore.Cancel.ALREADY_CANCELLING);

        assertThat(tasks.finish(key, N, token, withError(record(runId(), 0, "cancelled"), "the graph run was cancelled")))
                .isEqualTo(TaskStore.Finish.OK);

        NodeRecord written = NodeRecordCodec.decode("t:n",
                pool.hget(new RedisKeys("t").nodeRecords(key), N.key()).getBytes(StandardCharsets.UTF_8));
        assertThat(written.status()).isEqualTo(NodeStatus.CANCELLED);
        assertThat(written.error()).hasValue(reason);
        assertThat(written.rerun()).isZero();
        assertThat(tasks.history(key, runId())).singleElement()
                .satisfies(a -> assertThat(a.error()).hasValue(reason));
    }

    /**
     * An owed dead-letter copy is taken for a resend once stale, once a wait whatever passes ask at once, and given up
     * past its limit; nothing is owed once it is sent.
     */
    @Test
    void anOwedDeadLetterIsTakenForAResendOnceAWaitAndExpiresPastItsLimit() {
        submit(1);
        long token = ((TaskStore.Claim.Claimed) tasks.claim(key, runId(), 60_000, "w1")).token();
        assertThat(tasks.finishDeadLettered(key, N, token, withError(record(runId(), 0, "failed"), "gave up")))
                .isEqualTo(TaskStore.Finish.OK);
        assertThat(tasks.takeOwedDeadLetter(key, runId(), 10_000, 3_600_000)).as("ended just now")
                .isEqualTo(TaskStore.OwedDeadLetter.WAIT);
        // ended 20 s ago
        RedisKeys keys = new RedisKeys("t");
        String stored = pool.hget(keys.instances(key), runId());
        long ended = Long.parseLong(stored.replaceAll(".*\"ended\":(\\d+).*", "$1"));
        pool.hset(keys.instances(key), runId(), stored.replace("\"ended\":" + ended, "\"ended\":" + (ended - 20_000)));

        assertThat(tasks.takeOwedDeadLetter(key, runId(), 10_000, 3_600_000)).isEqualTo(TaskStore.OwedDeadLetter.SEND);
        assertThat(tasks.takeOwedDeadLetter(key, runId(), 10_000, 3_600_000)).as("taken by the first")
                .isEqualTo(TaskStore.OwedDeadLetter.WAIT);
        assertThat(tasks.takeOwedDeadLetter(key, runId(), 10_000, 15_000)).isEqualTo(TaskStore.OwedDeadLetter.EXPIRED);
        tasks.deadLetterSent(key, runId());
        assertThat(tasks.takeOwedDeadLetter(key, runId(), 0, 3_600_000)).isEqualTo(TaskStore.OwedDeadLetter.NONE);
    }

    private static NodeRecord withError(NodeRecord r, String error) {
        return new NodeRecord(r.status(), r.runId(), r.definition(), r.rerun(), r.terminatedAtMs(), r.output(),
                r.outputOmitted(), Optional.of(error));
    }

    @Test
    void anExpiredLeaseIsRedispatchedWhileAttemptsRemainThenExhausted() {
        submit(2);
        tasks.claim(key, runId(), 0, "w1");
        assertThat(tasks.reap(key, runId())).isEqualTo(new TaskStore.Reap.Redispatch());
        TaskStore.Claim.Claimed again = (TaskStore.Claim.Claimed) tasks.claim(key, runId(), 0, "w1");
        assertThat(again.attempt()).isEqualTo(2);
        TaskStore.Reap.Exhausted exhausted = (TaskStore.Reap.Exhausted) tasks.reap(key, runId());
        // the reaper ends it under a token of its own, which the holder whose lease ran out no longer has
        assertThat(exhausted.token()).isNotEqualTo(again.token());
        assertThat(tasks.finish(key, N, again.token(), record(runId(), 0, "failed"))).isEqualTo(TaskStore.Finish.LOST);
        assertThat(tasks.finish(key, N, exhausted.token(), record(runId(), 0, "failed")))
                .isEqualTo(TaskStore.Finish.OK);
    }

    @Test
    void everyAttemptOfAStepSeesTheClockOfTheStepsStartAndTheNextStepItsOwn() {
        submit(3);
        TaskStore.Claim.Claimed first = (TaskStore.Claim.Claimed) tasks.claim(key, runId(), 60_000, "w1");
        // parked for 2 ms and released once due: Redis's clock has moved on by the next claim
        tasks.park(key, runId(), first.token(), 2, "boom", false, Optional.empty());
        org.awaitility.Awaitility.await().until(() -> tasks.releaseDue(key, runId()).isPresent());
        TaskStore.Claim.Claimed retry = (TaskStore.Claim.Claimed) tasks.claim(key, runId(), 60_000, "w1");
        assertThat(retry.attempt()).isEqualTo(2);
        assertThat(retry.nowMs()).isEqualTo(first.nowMs());

        tasks.park(key, runId(), retry.token(), 2, "", true, Optional.of(JsonNodeFactory.instance.numberNode(1)));
        org.awaitility.Awaitility.await().until(() -> tasks.releaseDue(key, runId()).isPresent());
        TaskStore.Claim.Claimed nextStep = (TaskStore.Claim.Claimed) tasks.claim(key, runId(), 60_000, "w1");
        assertThat(nextStep.step()).isEqualTo(1);
        assertThat(nextStep.attempt()).isEqualTo(1);
        assertThat(nextStep.nowMs()).isGreaterThanOrEqualTo(first.nowMs() + 4);
    }

    @Test
    void parkedInstancesAreReleasedWhenDue() {
        submit(3);
        long token = ((TaskStore.Claim.Claimed) tasks.claim(key, runId(), 60_000, "w1")).token();
        TaskStore.Park parked = tasks.park(key, runId(), token, 0, "boom", false, Optional.empty());
        assertThat(parked).isInstanceOf(TaskStore.Park.Waiting.class);
        var released = tasks.releaseDue(key, runId());
        assertThat(released).hasValueSatisfying(i -> assertThat(i.status()).isEqualTo(InstanceStatus.PENDING));
        assertThat(tasks.releaseDue(key, runId())).isEmpty();
    }

    @Test
    void compareAndPutComparesTheBytesRead() {
        GraphRunRecord started = GraphRunRecord.started("h", 1);
        assertThat(runs.create(key, started)).isTrue();
        assertThat(runs.create(key, started)).isFalse();
        RunVersion read = runs.read(key).orElseThrow().version();
        GraphRunRecord settled = started.withState(RunState.COMPLETE, Optional.of(2L));
        assertThat(runs.compareAndSettle(key, read, settled)).isTrue();
        assertThat(runs.compareAndSettle(key, read, settled)).isFalse();
        assertThat(runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.COMPLETE);
    }

    /**
     * Spec §10: a cancel's request record commits with its cancelled run record, in the run's shard, and lives the
     * retention window; none when the run changed since it was read. A cancel's record that an earlier build wrote
     * in the id's own shard is still found.
     */
    @Test
    void aCancelsRequestRecordCommitsWithItsCancelledRunRecord() {
        Duration retention = Duration.ofDays(90);
        RedisTaskStore withRetention = new RedisTaskStore(pool, "t", retention, Durability.NONE);
        RedisRequestStore requests = new RedisRequestStore(pool, "t", retention);
        GraphRunRecord started = GraphRunRecord.started("h", 1);
        assertThat(runs.create(key, started)).isTrue();
        RunVersion read = runs.read(key).orElseThrow().version();
        GraphRunRecord cancelled = started.withState(RunState.CANCELLED, Optional.of(2L));
        AdminRequest cancel = new AdminRequest.Cancel(key.graph(), key.partition());
        String stale = "req-stale-" + SEQ.incrementAndGet();
        // a rerun's expectation changed the run since it was read
        GraphRunRecord changed = started.withExpectedReruns(new java.util.TreeMap<>(Map.of("n", 1L)));
        assertThat(runs.compareAndPut(key, read, changed)).isTrue();

        assertThat(withRetention.compareAndSettleRun(key, read, cancelled, new TaskStore.RequestWrite(
                new RequestRecord(stale, cancel, 1_000, new RequestOutcome.Cancelled(), false)))).isFalse();
        assertThat(requests.get(stale)).as("nothing committed with a refused settle").isEmpty();

        String id = "req-cancel-" + SEQ.incrementAndGet();
        RequestRecord record = new RequestRecord(id, cancel, 1_000, new RequestOutcome.Cancelled(), false);
        RunVersion now = runs.read(key).orElseThrow().version();
        GraphRunRecord cancelledNow = changed.withState(RunState.CANCELLED, Optional.of(2L));
        assertThat(withRetention.compareAndSettleRun(key, now, cancelledNow, new TaskStore.RequestWrite(record)))
                .isTrue();

        assertThat(runs.read(key).orElseThrow().run()).isEqualTo(cancelledNow);
        assertThat(requests.get(id)).hasValue(record);
        RedisKeys keys = new RedisKeys("t");
        assertThat(pool.pttl(keys.request(RedisKeys.shardOf(key), id)))
                .isBetween(2 * retention.toMillis() - 60_000, 2 * retention.toMillis());
        assertThat(pool.zscore(keys.expiry(key), "req:" + id)).isEqualTo(1_000.0);
        assertThat(pool.zscore(keys.expiry(key), "run:" + key.id())).isEqualTo(2.0);

        String earlier = "req-earlier-" + SEQ.incrementAndGet();
        RequestRecord written = new RequestRecord(earlier, cancel, 3_000, new RequestOutcome.Cancelled(), false);
        assertThat(requests.reserve(earlier, cancel)).isTrue();
        pool.set(keys.request(RedisKeys.ownShardOf(earlier), earlier), RequestCodec.encode(written));
        assertThat(requests.get(earlier)).hasValue(written);
    }

    /** Spec §12: a request record written with a Submitted rerun lives as long as any other: twice the window at most. */
    @Test
    void aRequestWrittenWithASubmissionGetsTwiceTheRetentionWindowAsItsTtl() {
        Duration retention = Duration.ofDays(90);
        RedisTaskStore withRetention = new RedisTaskStore(pool, "t", retention, Durability.NONE);
        String id = "req-" + SEQ.incrementAndGet();
        RequestRecord request = new RequestRecord(id, new AdminRequest.Rerun(key.graph(), key.partition(), "n"), 1_000,
                new RequestOutcome.Rerun(runId()), false);
        assertThat(withRetention.submit(key, runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", 1),
                input(""), Optional.of(new TaskStore.RequestWrite(request)))).isEqualTo(TaskStore.Submit.NEW);

        RedisRequestStore requests = new RedisRequestStore(pool, "t", retention);
        assertThat(requests.get(id)).hasValue(request);
        {
            var j = pool;
            RedisKeys keys = new RedisKeys("t");
            // a rerun's request record is in its run's shard, with the run's expiry entries
            assertThat(j.pttl(keys.request(RedisKeys.shardOf(key), id)))
                    .isBetween(2 * retention.toMillis() - 60_000, 2 * retention.toMillis());
            assertThat(j.zscore(keys.expiry(key), "req:" + id)).isEqualTo(1_000.0);
        }
        String direct = id + "-direct";
        RequestRecord cancel = new RequestRecord(direct, new AdminRequest.Cancel(key.graph(), key.partition()),
                2_000, new RequestOutcome.Cancelled(), false);
        assertThat(requests.putIfAbsent(cancel)).isTrue();
        assertThat(requests.get(direct)).hasValue(cancel);
        assertThat(pool.pttl(new RedisKeys("t").request(RedisKeys.shardOf(cancel), direct)))
                .isBetween(2 * retention.toMillis() - 60_000, 2 * retention.toMillis());
    }

    /** Spec §10: a record answers its id until it expires, so its reservation, which finds it, lives as long. */
    @Test
    void aRequestRecordedLongAfterItsFirstTryIsFoundForItsWholeLife() {
        Duration retention = Duration.ofDays(90);
        RedisRequestStore requests = new RedisRequestStore(pool, "t", retention);
        String id = "req-late-" + SEQ.incrementAndGet();
        AdminRequest cancel = new AdminRequest.Cancel(key.graph(), key.partition());
        assertThat(requests.reserve(id, cancel)).isTrue();
        String reservation = new RedisKeys("t").requestReservation(id);
        // the first try failed (503) and the client retries much later: what is left of the reservation is short
        pool.pexpire(reservation, 30_000);

        assertThat(requests.putIfAbsent(new RequestRecord(id, cancel, 2_000, new RequestOutcome.Cancelled(), false)))
                .isTrue();

        long record = pool.pttl(new RedisKeys("t").request(RedisKeys.shardOf(id, cancel), id));
        assertThat(pool.pttl(reservation)).isGreaterThanOrEqualTo(record).isGreaterThan(2 * retention.toMillis() - 60_000);
    }

    /** Only a rerun of this very run commits its request record with the submission (one slot). */
    @Test
    void aRequestRecordOfAnotherRunIsRefusedWithTheSubmission() {
        RequestRecord other = new RequestRecord("req-other", new AdminRequest.Rerun(key.graph() + "x", key.partition(),
                "n"), 1_000, new RequestOutcome.Rerun(runId()), false);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> tasks.submit(key, runId(),
                new PendingInstance("n", Optional.empty(), "h", 0, "default", 1), input(""),
                Optional.of(new TaskStore.RequestWrite(other))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("req-other")
                .hasMessageContaining("not a rerun or cancel of run " + key.id());
        assertThat(tasks.submit(key, runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", 1),
                input(""))).as("nothing was written").isEqualTo(TaskStore.Submit.NEW);
    }

    @Test
    void twoDifferentRequestsUnderOneIdNeverBothRecord() {
        RedisRequestStore requests = new RedisRequestStore(pool, "t");
        String id = "req-same-" + SEQ.incrementAndGet();
        RunKey other = new RunKey(key.graph(), Partition.of("q"));
        for (int i = 0; RedisKeys.shardOf(other) == RedisKeys.shardOf(key); i++) {
            other = new RunKey(key.graph(), Partition.of("q" + i));
        }
        RequestRecord first = new RequestRecord(id, new AdminRequest.Rerun(key.graph(), key.partition(), "n"), 1_000,
                new RequestOutcome.Rerun(runId()), false);
        assertThat(tasks.submit(key, runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", 1), input(""),
                Optional.of(new TaskStore.RequestWrite(first)))).isEqualTo(TaskStore.Submit.NEW);

        // the id's reservation refuses these: the rerun's record would live in another shard than the first's, and
        // the cancel's (in this run's shard) would be a second request under the id
        RequestRecord rerunOfOther = new RequestRecord(id, new AdminRequest.Rerun(other.graph(), other.partition(), "n"),
                2_000, new RequestOutcome.Rerun(other.runId("n", 0)), false);
        RequestRecord cancel = new RequestRecord(id, new AdminRequest.Cancel(key.graph(), key.partition()), 2_000,
                new RequestOutcome.Cancelled(), false);
        assertThat(requests.putIfAbsent(rerunOfOther)).isFalse();
        assertThat(requests.putIfAbsent(cancel)).isFalse();
        assertThat(requests.reserve(id, cancel.request())).isFalse();
        RunKey otherRun = other;
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> tasks.submit(otherRun, otherRun.runId("n", 0),
                new PendingInstance("n", Optional.empty(), "h", 0, "default", 1), input(""),
                Optional.of(new TaskStore.RequestWrite(rerunOfOther))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(id);
        assertThat(pool.get(new RedisKeys("t").request(RedisKeys.shardOf(other), id))).as("no second record").isNull();
        assertThat(requests.get(id)).hasValue(first);
        // the same request again still holds the id (a retry after a transient failure)
        assertThat(requests.reserve(id, first.request())).isTrue();
    }

    private String rawRecord(RunKey k) {
        return pool.hget(new RedisKeys("t").nodeRecords(k), "t:n");
    }

    /** The record field of node {@code n}. */
    private static final RecordField N = new RecordField("n", Optional.empty());

    private static NodeRecord record(String runId, long rerun, String status) {
        return new NodeRecord(NodeStatus.fromWireName(status).orElseThrow(), runId, "h", rerun, 1, Optional.empty(),
                false, Optional.empty());
    }

    private static TaskInput input(String operator) {
        return new TaskInput(operator, JsonNodeFactory.instance.nullNode(), Map.of(), Map.of());
    }
}
