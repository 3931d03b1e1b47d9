package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.kafka.ListenerFailure;
import io.swale.operator.Cancellation;
import io.swale.operator.OperatorResult;
import io.swale.store.PendingInstance;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisTaskStore;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.embedded.RedisServer;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Issue 13, scope 3, on a real redis-server: an attempt that ends while Redis does not answer is settled once
 * Redis answers again (within the lease), exactly once, its event sent once.
 */
class SettlementRedisIT {
    private static final Duration LEASE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private int port;
    private RedisServer server;
    private UnifiedJedis pool;
    private RedisTaskStore tasks;
    private final RecordingMetrics metrics = new RecordingMetrics();
    private final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startRedis() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        server = server();
        server.start();
        // short timeouts, so a call Redis does not answer fails within the test's patience
        pool = new JedisPooled(new HostAndPort("127.0.0.1", port),
                DefaultJedisClientConfig.builder().timeoutMillis(400).build());
        tasks = new RedisTaskStore(pool, "s");
    }

    /** Append-only, always synced: what was written survives a restart, as on a production Redis with AOF. */
    private RedisServer server() throws IOException {
        Files.createDirectories(dir);
        return RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                .setting("appendonly yes").setting("appendfsync always").setting("dir " + dir).build();
    }

    @AfterEach
    void stopRedis() throws IOException {
        pool.close();
        server.stop();
    }

    private record Claimed(TaskIdentity id, TaskStore.Claim.Claimed claim, LeaseKeeper.Lease lease) {}

    private Claimed claim(String node) {
        TaskIdentity id = new TaskIdentity("g", Partition.of("p"), node, Optional.empty(), "h", 0);
        tasks.submit(id.runKey(), id.runId(), new PendingInstance(node, Optional.empty(), "h", 0, "gpu", 3),
                new TaskInput("noop", JsonNodeFactory.instance.objectNode(), Map.of(), Map.of()));
        long sent = System.nanoTime();
        var claim = (TaskStore.Claim.Claimed) tasks.claim(id.runKey(), id.runId(), LEASE.toMillis(), "w1");
        LeaseKeeper keeper = new LeaseKeeper(tasks, null,
                new LeaseKeeper.Timing(LEASE, Duration.ofSeconds(15), Duration.ofSeconds(1)), metrics);
        return new Claimed(id, claim, keeper.open(id, claim.token(), "gpu", sent, new Cancellation()));
    }

    private Settlement settlement() {
        return new Settlement(tasks, new Terminations(tasks, (id, status) -> events.add(id.node() + " " + status.wireName()),
                letter -> { }, Clock.systemUTC(), metrics), Backoff.DEFAULT, metrics, ListenerFailure::isOutage);
    }

    private void assertSettledOnce(Claimed c) {
        {
            var j = pool;
            assertThat(j.hget(new io.swale.store.redis.RedisKeys("s").nodeRecords(c.id().runKey()), c.id().recordField().key()))
                    .contains("\"status\":\"succeeded\"");
        }
        assertThat(tasks.history(c.id().runKey(), c.id().runId())).hasSize(1)
                .first().satisfies(a -> assertThat(a.outcome()).isEqualTo("succeeded"));
        assertThat(events).containsExactly(c.id().node() + " succeeded");
        assertThat(metrics.count("settle-retried gpu")).isPositive();
        assertThat(metrics.count("settle-abandoned gpu")).isZero();
        assertThat(metrics.count("terminated gpu succeeded")).isLessThanOrEqualTo(1);
    }

    /** Was: `attempt failed to settle … Failed to connect`, the result dropped, the task run again after 60 s. */
    @Test
    void anAttemptEndingWhileRedisIsDownIsSettledWhenItIsBack() throws Exception {
        Claimed c = claim("down");
        server.stop();
        CompletableFuture<Void> settling = CompletableFuture.runAsync(() -> settlement().settle(c.id(), c.claim(), "gpu",
                new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()), false, System.nanoTime(), c.lease()));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> metrics.count("settle-retried gpu") >= 2);
        assertThat(settling).isNotDone();
        server = server();
        server.start();
        settling.get(30, TimeUnit.SECONDS);

        assertSettledOnce(c);
    }

    /**
     * The finish reaches Redis and commits, and its answer is lost on the way back. The retry finds it committed
     * (SETTLED) and sends the event the lost answer did not; nothing is written twice.
     */
    @Test
    void aFinishWhoseAnswerIsLostIsRecognisedOnRetry() throws Exception {
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(port);
                UnifiedJedis viaProxy = new JedisPooled(new HostAndPort("127.0.0.1", proxy.port()),
                        DefaultJedisClientConfig.builder().timeoutMillis(400).build())) {
            tasks = new RedisTaskStore(viaProxy, "s");
            // the finish script is cached in Redis first, so the lost answer is the commit's, not a NOSCRIPT
            Claimed warm = claim("warm");
            settlement().settle(warm.id(), warm.claim(), "gpu", new OperatorResult.Succeeded(
                    JsonNodeFactory.instance.objectNode()), false, System.nanoTime(), warm.lease());
            events.clear();
            metrics.counted.clear();

            Claimed c = claim("lost_answer");
            proxy.dropNextReply();
            settlement().settle(c.id(), c.claim(), "gpu", new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()),
                    false, System.nanoTime(), c.lease());

            assertThat(proxy.dropped()).isEqualTo(1);
            assertSettledOnce(c);
            assertThat(metrics.count("terminated gpu succeeded")).as("the retry found it SETTLED, not written again")
                    .isZero();
        }
    }
}
