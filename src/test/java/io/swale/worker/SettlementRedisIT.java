package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.kafka.ListenerFailure;
import io.swale.operator.Cancellation;
import io.swale.operator.OperatorResult;
import io.swale.operator.AttemptContext;
import io.swale.operator.Operator;
import io.swale.operator.OperatorRegistry;
import io.swale.store.AttemptRecord;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import tools.jackson.databind.JsonNode;
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

    /** Submits attempt 1 of 3 of {@code node} running {@code operator}, and claims it for {@code lease}. */
    private TaskStore.Claim.Claimed submitAndClaim(TaskIdentity id, String operator, Duration lease) {
        tasks.submit(id.runKey(), id.runId(), new PendingInstance(id.node(), Optional.empty(), "h", 0, "gpu", 3),
                new TaskInput(operator, JsonNodeFactory.instance.objectNode(), Map.of(), Map.of()));
        return (TaskStore.Claim.Claimed) tasks.claim(id.runKey(), id.runId(), lease.toMillis(), "w1");
    }

    private Claimed claim(String node) {
        TaskIdentity id = new TaskIdentity("g", Partition.of("p"), node, Optional.empty(), "h", 0);
        long sent = System.nanoTime();
        var claim = submitAndClaim(id, "noop", LEASE);
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

    /** An operator that stops when cancelled, as a program killed, but returns only once the test lets it. */
    private static final class Held implements Operator {
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public String name() {
            return "held";
        }

        @Override
        public void checkParams(JsonNode params) {
        }

        @Override
        public OperatorResult execute(AttemptContext context) {
            CountDownLatch stopped = new CountDownLatch(1);
            context.cancellation().onCancel(stopped::countDown);
            try {
                stopped.await();
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new OperatorResult.TransientError(context.cancellation().reason());
        }
    }

    /**
     * Runs attempt 1 of 3 of {@code held} under a 3 s lease while redis-server is down from the claim on; once the
     * lease ran out, brings Redis back and runs {@code whileStopped}, then lets the operator return. Answers the
     * instance's attempt history when the attempt has ended.
     */
    private List<AttemptRecord> attemptWithRedisDownPastTheLease(Held held, Runnable whileStopped) throws Exception {
        Duration lease = Duration.ofSeconds(3);
        TaskIdentity id = new TaskIdentity("g", Partition.of("p"), "unextended", Optional.empty(), "h", 0);
        long sent = System.nanoTime();
        var claim = submitAndClaim(id, "held", lease);
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        try {
            AttemptRunner runner = new AttemptRunner(new OperatorRegistry(List.of(held)), new LeaseKeeper(tasks, ticker,
                    new LeaseKeeper.Timing(lease, Duration.ofSeconds(1), Duration.ofMillis(100)), metrics), settlement(),
                    Map.of(), metrics);
            server.stop();
            CompletableFuture<Boolean> attempt = CompletableFuture.supplyAsync(() -> runner.run(id, claim, "gpu", sent,
                    new Cancellation(), Optional.empty(), () -> { }));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> metrics.count("lease-lost gpu") == 1);
            server = server();
            server.start();
            whileStopped.run();
            held.release.countDown();
            assertThat(attempt.get(30, TimeUnit.SECONDS)).as("not a hand-over").isFalse();
        } finally {
            ticker.shutdownNow();
        }
        return tasks.history(id.runKey(), id.runId());
    }

    /** Spec §8.2: "A failed extension is a transient error naming the cause." Was: dropped, for the reaper. */
    @Test
    void anAttemptWhoseLeaseCouldNotBeExtendedEndsWithATransientErrorNamingTheCause() throws Exception {
        List<AttemptRecord> history = attemptWithRedisDownPastTheLease(new Held(), () -> { });

        assertThat(metrics.count("heartbeat-failed gpu")).isPositive();
        assertThat(history).singleElement().satisfies(a -> {
            assertThat(a.outcome()).as("retried after a backoff, as a transient error is").isEqualTo("retry");
            assertThat(a.error()).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .startsWith("the lease of attempt 1 could not be extended: ")
                    .containsIgnoringCase("connect");
        });
        assertThat(metrics.count("attempt gpu retry")).isEqualTo(1);
        assertThat(metrics.count("settle-abandoned gpu")).isZero();
    }

    /** The reaper got there first and handed the instance on: the late error is refused, nothing is written twice. */
    @Test
    void aLeaseNotExtendedThatTheReaperAlreadyEndedIsNotSettledAgain() throws Exception {
        TaskIdentity id = new TaskIdentity("g", Partition.of("p"), "unextended", Optional.empty(), "h", 0);
        List<AttemptRecord> history = attemptWithRedisDownPastTheLease(new Held(),
                () -> assertThat(tasks.reap(id.runKey(), id.runId())).isInstanceOf(TaskStore.Reap.Redispatch.class));

        assertThat(history).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo("lease_expired");
            assertThat(a.error()).contains("the lease of attempt 1 expired");
        });
        assertThat(metrics.count("settle-abandoned gpu")).as("the store answered, and refused it").isZero();
    }
    /**
     * A step that asks to wait longer than a clock can count (an {@code object_exists} interval of 10^17 s, valid as
     * a duration) waits the longest a stored time can say; it threw ArithmeticException in the settle, and the
     * instance stayed running until the reaper took its lease.
     */
    @Test
    void aContinueLongerThanAClockCanCountParksTheInstanceForTheLongestDelay() {
        Claimed c = claim("far");
        settlement().settle(c.id(), c.claim(), "gpu", new OperatorResult.Continue(JsonNodeFactory.instance.objectNode(),
                Duration.ofSeconds(Long.MAX_VALUE)), false, System.nanoTime(), c.lease());

        String stored = pool.hget(new io.swale.store.redis.RedisKeys("s").instances(c.id().runKey()), c.id().runId());
        JsonNode instance = tools.jackson.databind.json.JsonMapper.shared().readTree(stored);
        assertThat(instance.path("state").asString()).isEqualTo("waiting");
        assertThat(instance.path("step").asLong()).isEqualTo(1);
        assertThat(instance.path("due").isIntegralNumber()).as(stored).isTrue();
        assertThat(instance.path("due").asLong()).isCloseTo(System.currentTimeMillis() + Settlement.LONGEST_DELAY_MS,
                org.assertj.core.data.Offset.offset(60_000L));
        assertThat(events).isEmpty();
    }
}
