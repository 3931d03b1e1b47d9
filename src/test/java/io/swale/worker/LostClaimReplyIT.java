package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.kafka.ListenerFailure;
import io.swale.operator.OperatorRegistry;
import io.swale.store.InstanceStatus;
import io.swale.store.PendingInstance;
import io.swale.store.TaskInput;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisRunStore;
import io.swale.store.redis.RedisTaskStore;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.embedded.RedisServer;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A claim that Redis committed but whose reply the worker never got (a read timeout, a reset connection): when the
 * poll comes back, the worker must run that attempt, not take its own claim for someone else's and leave the
 * attempt to burn until its lease expires. On a real redis-server, behind a proxy that loses the claim's reply
 * after Redis ran it.
 */
class LostClaimReplyIT {
    private static final Duration LEASE = Duration.ofSeconds(60);

    private int port;
    private RedisServer server;
    private UnifiedJedis pool;
    private RedisTaskStore tasks;
    private ScheduledExecutorService ticker;
    private final RecordingMetrics metrics = new RecordingMetrics();

    @BeforeEach
    void start() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        server = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
        server.start();
        pool = new JedisPooled("127.0.0.1", port);
        tasks = new RedisTaskStore(pool, "l");
        ticker = Executors.newScheduledThreadPool(1);
    }

    @AfterEach
    void stop() throws IOException {
        ticker.shutdownNow();
        pool.close();
        server.stop();
    }

    @Test
    void theAttemptOfAClaimWhoseReplyWasLostRunsWhenThePollComesBack() throws Exception {
        TaskIdentity id = new TaskIdentity("g", Partition.of("p"), "n", Optional.empty(), "h", 0);
        tasks.submit(id.runKey(), id.runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", 1),
                new TaskInput("noop", JsonNodeFactory.instance.objectNode(), Map.of(), Map.of()));
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(port);
                UnifiedJedis viaProxy = new JedisPooled(new HostAndPort("127.0.0.1", proxy.port()),
                        DefaultJedisClientConfig.builder().timeoutMillis(400).build())) {
            RedisTaskStore store = new RedisTaskStore(viaProxy, "l");
            // the claim script is cached in Redis first, so the lost reply is the claim's, not a NOSCRIPT
            assertThat(store.claim(id.runKey(), "nobody", LEASE.toMillis(), "w1"))
                    .isEqualTo(new TaskStore.Claim.Refused("unknown"));
            PoolWorker worker = worker(store);

            assertThat(worker.reserve(1, 0)).isEqualTo(1);
            proxy.dropNextReply();
            assertThatThrownBy(() -> worker.claimAndRun(List.of(id), () -> { }))
                    .isInstanceOf(JedisConnectionException.class);
            assertThat(proxy.dropped()).isEqualTo(1);
            assertThat(instance(id).status()).isEqualTo(InstanceStatus.RUNNING);

            // the poll is handed over again, as the listener's error handler does
            assertThat(worker.reserve(1, 0)).isEqualTo(1);
            assertThat(worker.claimAndRun(List.of(id), () -> { })).isTrue();

            await().atMost(Duration.ofSeconds(20)).until(() -> instance(id).status() == InstanceStatus.SUCCEEDED);
            assertThat(instance(id).attempt()).isEqualTo(1);
        }
    }

    private TaskInstance instance(TaskIdentity id) {
        return new RedisRunStore(pool, "l").instances(List.of(id.runKey())).get(id.runKey()).stream()
                .filter(i -> i.runId().equals(id.runId())).findFirst().orElseThrow();
    }

    private PoolWorker worker(TaskStore store) {
        Settlement settlement = new Settlement(store, new Terminations(store, (i, status) -> { }, letter -> { },
                Clock.systemUTC(), metrics), Backoff.DEFAULT, metrics, ListenerFailure::isOutage);
        AttemptRunner runner = new AttemptRunner(OperatorRegistry.builtIn(),
                new LeaseKeeper(store, ticker, new LeaseKeeper.Timing(LEASE, Duration.ofSeconds(15),
                        Duration.ofSeconds(1)), metrics), settlement, Map.of(), metrics);
        return new PoolWorker("default", 1, store, runner, (p, i) -> { }, new PoolWorker.Settings("w1", LEASE.toMillis()));
    }
}
