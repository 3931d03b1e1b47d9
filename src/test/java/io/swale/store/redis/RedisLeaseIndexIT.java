package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.store.PendingInstance;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The lease index the reaper reads (docs/operations.md, "Redis keys"), against a real redis-server: a claim
 * enters the instance's lease end, a heartbeat moves it, and every way an attempt stops holding its lease takes it
 * out, in the same script as the state change.
 */
@WithTestRedis
class RedisLeaseIndexIT {
    private static final String PREFIX = "li";
    private static final long FAR = Long.MAX_VALUE / 4;
    private static final RecordField N = new RecordField("n", Optional.empty());
    private static final AtomicLong SEQ = new AtomicLong();
    private static UnifiedJedis pool;

    private RedisTaskStore tasks;
    private RunKey key;
    private String runId;

    @BeforeAll
    static void connect(UnifiedJedis redis) {
        pool = redis;
    }

    @BeforeEach
    void stores() {
        tasks = new RedisTaskStore(pool, PREFIX);
        key = new RunKey("lease" + SEQ.incrementAndGet(), Partition.of("p"));
        runId = key.runId("n", 0);
    }

    private void submit(long maxAttempts) {
        assertThat(tasks.submit(key, runId, new PendingInstance("n", Optional.empty(), "h", 0, "default", maxAttempts),
                new TaskInput("noop", JsonNodeFactory.instance.nullNode(), Map.of(), Map.of())))
                .isEqualTo(TaskStore.Submit.NEW);
    }

    private long claim(long leaseMs) {
        return ((TaskStore.Claim.Claimed) tasks.claim(key, runId, leaseMs, "w1")).token();
    }

    /** This test's instance's entry in the index, read up to any lease end. */
    private Optional<TaskStore.ExpiredLease> entry() {
        return tasks.expiredLeases(FAR, 1_000).stream().filter(l -> l.key().equals(key)).findFirst();
    }

    private long instanceLease() {
        return InstanceCodec.decode(runId, pool.hget(new RedisKeys(PREFIX).instances(key), runId)).leaseUntilMs()
                .orElseThrow();
    }

    private static NodeRecord record(String runId, String status) {
        return new NodeRecord(NodeStatus.fromWireName(status).orElseThrow(), runId, "h", 0, 1, Optional.empty(),
                false, Optional.empty());
    }

    @Test
    void aClaimEntersItsLeaseEndAHeartbeatMovesItAndTheFinishTakesItOut() {
        submit(1);
        long token = claim(60_000);
        assertThat(entry()).hasValue(new TaskStore.ExpiredLease(key, runId, instanceLease()));

        assertThat(tasks.heartbeat(key, runId, token, 600_000)).isEqualTo(TaskStore.Heartbeat.RUNNING);
        long extended = instanceLease();
        assertThat(entry()).hasValue(new TaskStore.ExpiredLease(key, runId, extended));
        // a heartbeat that only reads the cancel flag leaves it
        assertThat(tasks.heartbeat(key, runId, token, 0)).isEqualTo(TaskStore.Heartbeat.RUNNING);
        assertThat(entry()).hasValue(new TaskStore.ExpiredLease(key, runId, extended));

        assertThat(tasks.finish(key, N, token, record(runId, "succeeded"))).isEqualTo(TaskStore.Finish.OK);
        assertThat(entry()).isEmpty();
    }

    @Test
    void onlyLeasesThatEndedAreRead() {
        submit(1);
        claim(60_000);
        long now = tasks.serverTimeMs();

        assertThat(tasks.expiredLeases(now, 1_000)).noneMatch(l -> l.key().equals(key));
        assertThat(tasks.expiredLeases(instanceLease(), 1_000)).anyMatch(l -> l.key().equals(key));
    }

    @Test
    void aGiveBackAParkAndAReapThatDispatchesAgainTakeTheLeaseOut() {
        submit(3);
        long token = claim(60_000);
        assertThat(tasks.giveBack(key, runId, token, "shutting down")).isEqualTo(TaskStore.GiveBack.RELEASED);
        assertThat(entry()).isEmpty();

        token = claim(60_000);
        assertThat(tasks.park(key, runId, token, 60_000, "boom", false, Optional.empty()))
                .isInstanceOf(TaskStore.Park.Waiting.class);
        assertThat(entry()).isEmpty();

        RunKey other = new RunKey(key.graph() + "x", key.partition());
        key = other;
        runId = other.runId("n", 0);
        submit(2);
        claim(0);
        assertThat(entry()).isPresent();
        assertThat(tasks.reap(key, runId)).isEqualTo(new TaskStore.Reap.Redispatch());
        assertThat(entry()).isEmpty();
    }

    @Test
    void anExhaustedLeaseStaysIndexedUntilItsFailureIsWritten() {
        submit(1);
        claim(0);
        long token = ((TaskStore.Reap.Exhausted) tasks.reap(key, runId)).token();
        // if writing the failure fails, the next pass finds the lease again
        assertThat(entry()).isPresent();

        assertThat(tasks.finish(key, N, token, record(runId, "failed"))).isEqualTo(TaskStore.Finish.OK);
        assertThat(entry()).isEmpty();
    }

    @Test
    void aForgottenEntryIsRemovedOnlyWhileItStillEndsWhenItWasRead() {
        submit(2);
        long token = claim(60_000);
        TaskStore.ExpiredLease read = entry().orElseThrow();
        assertThat(tasks.heartbeat(key, runId, token, 600_000)).isEqualTo(TaskStore.Heartbeat.RUNNING);

        assertThat(tasks.forgetLease(read)).isFalse();
        assertThat(entry()).isPresent();

        assertThat(tasks.forgetLease(entry().orElseThrow())).isTrue();
        assertThat(entry()).isEmpty();
    }
}
