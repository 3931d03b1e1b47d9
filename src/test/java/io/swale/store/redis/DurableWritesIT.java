package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.swale.config.RedisClients;
import io.swale.graph.Partition;
import io.swale.kafka.ListenerFailure;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.PendingInstance;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;
import redis.embedded.RedisServer;
import tools.jackson.databind.node.JsonNodeFactory;

/** {@code swale.redis.durability=wait} on a real primary and replica (two redis-server processes). */
class DurableWritesIT {
    private static final AtomicLong SEQ = new AtomicLong();
    private static final Durability WAIT = Durability.waitFor(1, 300);

    private RedisServer primary;
    private RedisServer replica;
    private HostAndPort replicaAddress;
    private UnifiedJedis redis;
    private RedisTaskStore tasks;
    private RedisRunStore runs;

    /** Where each server writes the snapshot of its first sync: not next to the binary, which nothing deletes. */
    @TempDir
    Path dir;

    @BeforeEach
    void primaryAndReplica() throws IOException {
        int p = freePort();
        int r = freePort();
        Files.createDirectories(dir.resolve("primary"));
        Files.createDirectories(dir.resolve("replica"));
        primary = RedisServer.newRedisServer().port(p).bind("127.0.0.1").setting("save \"\"")
                .setting("dir \"" + dir.resolve("primary") + "\"").build();
        primary.start();
        replica = RedisServer.newRedisServer().port(r).bind("127.0.0.1").setting("save \"\"")
                .setting("dir \"" + dir.resolve("replica") + "\"").slaveOf("127.0.0.1", p).build();
        replica.start();
        replicaAddress = new HostAndPort("127.0.0.1", r);
        HostAndPort primaryAddress = new HostAndPort("127.0.0.1", p);
        await().atMost(Duration.ofSeconds(30)).until(() -> replication(primaryAddress).contains("connected_slaves:1")
                && replication(replicaAddress).contains("master_link_status:up"));
        redis = RedisClients.standalone(primaryAddress, RedisClients.plain(5_000));
        tasks = new RedisTaskStore(redis, "d", Duration.ZERO, WAIT);
        runs = new RedisRunStore(redis, "d", WAIT);
    }

    @AfterEach
    void stop() throws IOException {
        redis.close();
        if (replica.isActive()) {
            replica.stop();
        }
        primary.stop();
    }

    @Test
    void stepsSucceedWhileTheReplicaAcknowledges() {
        RunKey key = runKey();
        assertThat(runs.create(key, GraphRunRecord.started("h", 1))).isTrue();
        assertThat(tasks.submit(key, key.runId("n", 0), pending("n"), input())).isEqualTo(TaskStore.Submit.NEW);
        long token = ((TaskStore.Claim.Claimed) tasks.claim(key, key.runId("n", 0), 60_000, "w")).token();
        assertThat(tasks.finish(key, new RecordField("n", Optional.empty()), token, succeeded(key.runId("n", 0))))
                .isEqualTo(TaskStore.Finish.OK);
        var read = runs.read(key).orElseThrow();
        assertThat(runs.compareAndSettle(key, read.version(), read.run().withState(RunState.COMPLETE, Optional.of(2L)),
                List.of(key.runId("n", 1)))).isTrue();
        // what the primary acknowledged is on the replica already
        try (Jedis j = new Jedis(replicaAddress)) {
            assertThat(j.get(new RedisKeys("d").run(key))).contains("complete");
        }
    }

    @Test
    void aStepFailsAsTransientWhenTheReplicaIsGone() throws IOException {
        RunKey key = runKey();
        runs.create(key, GraphRunRecord.started("h", 1));
        replica.stop();
        await().atMost(Duration.ofSeconds(30)).until(() -> replication(primaryOf()).contains("connected_slaves:0"));

        assertThatThrownBy(() -> tasks.submit(key, key.runId("n", 0), pending("n"), input()))
                .isInstanceOf(TooFewReplicas.class)
                .hasMessageContaining("submit").hasMessageContaining("reached 0 of 1 replicas within 300 ms")
                .satisfies(e -> assertThat(ListenerFailure.of(e)).isEqualTo(ListenerFailure.UNAVAILABLE));
        // the batch form too
        assertThatThrownBy(() -> tasks.submitAll(key, List.of(
                new TaskStore.SubmitRequest(key.runId("a", 0), pending("a"), input()),
                new TaskStore.SubmitRequest(key.runId("b", 0), pending("b"), input()))))
                .isInstanceOf(TooFewReplicas.class);
        var read = runs.read(key).orElseThrow();
        assertThatThrownBy(() -> runs.compareAndPut(key, read.version(), read.run()))
                .isInstanceOf(TooFewReplicas.class).hasMessageContaining("putrun");
    }

    /**
     * WAIT counts the writes of its own connection only: a replica that is connected but does not process the
     * stream (DEBUG SLEEP) acknowledges nothing, so the write fails. A WAIT sent on any other pooled connection,
     * one without writes, would have answered 1 at once.
     */
    @Test
    void theWaitCountsTheWriteItFollows() {
        RunKey key = runKey();
        runs.create(key, GraphRunRecord.started("h", 1));
        CompletableFuture<Object> sleeping = CompletableFuture.supplyAsync(() -> {
            try (Jedis j = new Jedis(replicaAddress, DefaultJedisClientConfig.builder().timeoutMillis(10_000).build())) {
                return j.sendCommand(() -> "DEBUG".getBytes(java.nio.charset.StandardCharsets.US_ASCII), "SLEEP", "3");
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(this::replicaIsBusy);

        assertThatThrownBy(() -> tasks.submit(key, key.runId("n", 0), pending("n"), input()))
                .isInstanceOf(TooFewReplicas.class);

        sleeping.join();
        assertThat(tasks.submit(key, key.runId("m", 0), pending("m"), input())).isEqualTo(TaskStore.Submit.NEW);
    }

    /** durability=fsync: a Redis without appendfsync always stops start-up; one with it passes. */
    @Test
    void fsyncNeedsAppendfsyncAlways(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        assertThatThrownBy(() -> RedisLayout.requireFsync(redis)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("swale.redis.durability=fsync").hasMessageContaining("appendonly no");
        try (Jedis j = new Jedis(primaryOf())) {
            j.configSet("dir", dir.toString());
            j.configSet("appendfsync", "always");
            j.configSet("appendonly", "yes");
        }
        RedisLayout.requireFsync(redis);
        try (Jedis j = new Jedis(primaryOf())) {
            // a Redis still writing its first AOF refuses SIGTERM ("Writing initial AOF, can't exit"): stop() would hang
            j.configSet("appendonly", "no");
        }
    }

    /** The shard count is recorded once; data written with another count stops start-up. */
    @Test
    void anotherShardCountStopsStartUp() {
        RedisLayout.check(redis, "layout");
        RedisLayout.check(redis, "layout");
        redis.set(new RedisKeys("layout").layout(), "shards=16");
        assertThatThrownBy(() -> RedisLayout.check(redis, "layout")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("layout:layout").hasMessageContaining("shards=16");
    }

    /**
     * Grants and capacities wait for the replica as claims do: their keys may live on another primary than the
     * run's, whose WAIT would not cover them. Was: written without waiting, whatever the setting.
     */
    @Test
    void resourceWritesWaitForTheReplicaToo() throws IOException {
        RedisResourceStore resources = new RedisResourceStore(redis, "d", 60_000, WAIT);
        resources.setCapacity("warehouse", 1);
        assertThat(resources.grant("r-1", "g-1", List.of("warehouse"), 60_000, "x"))
                .isInstanceOf(io.swale.store.ResourceStore.Grant.Granted.class);
        try (Jedis j = new Jedis(replicaAddress)) {
            assertThat(j.hget("d:res:cap{d:res}", "warehouse")).isEqualTo("1");
            assertThat(j.hgetAll("d:res:grant{d:res}")).containsKey("r-1");
        }

        replica.stop();
        await().atMost(Duration.ofSeconds(30)).until(() -> replication(primaryOf()).contains("connected_slaves:0"));
        assertThatThrownBy(() -> resources.setCapacity("warehouse", 2)).isInstanceOf(TooFewReplicas.class)
                .hasMessageContaining("capacity");
        assertThatThrownBy(() -> resources.renew(List.of(new io.swale.store.ResourceStore.Holder("r-1", "g-1")), 60_000))
                .isInstanceOf(TooFewReplicas.class);
    }

    private boolean replicaIsBusy() {
        try (Jedis j = new Jedis(replicaAddress, DefaultJedisClientConfig.builder().timeoutMillis(100).build())) {
            j.ping();
            return false;
        } catch (redis.clients.jedis.exceptions.JedisConnectionException e) {
            return true;
        }
    }

    private HostAndPort primaryOf() {
        return new HostAndPort("127.0.0.1", primary.ports().getFirst());
    }

    private static String replication(HostAndPort node) {
        try (Jedis j = new Jedis(node)) {
            return j.info("replication");
        }
    }

    private static RunKey runKey() {
        return new RunKey("d" + SEQ.incrementAndGet(), Partition.of("p"));
    }

    private static PendingInstance pending(String node) {
        return new PendingInstance(node, Optional.empty(), "h", 0, "default", 3);
    }

    private static TaskInput input() {
        return new TaskInput("noop", JsonNodeFactory.instance.nullNode(), Map.of(), Map.of());
    }

    private static NodeRecord succeeded(String runId) {
        return new NodeRecord(NodeStatus.SUCCEEDED, runId, "h", 0, 1, Optional.empty(), false, Optional.empty());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
