package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.operator.OperatorRegistry;
import io.swale.store.InstanceStatus;
import io.swale.store.PendingInstance;
import io.swale.store.TaskInput;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisRunStore;
import io.swale.store.redis.RedisTaskStore;
import io.swale.task.TaskIdentity;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A claim that Redis committed but whose reply the worker never got (a read timeout, a reset connection): when the
 * poll comes back, the worker must run that attempt, not take its own claim for someone else's and leave the
 * attempt to burn until its lease expires. On a real redis-server, behind a proxy that loses the claim's reply
 * after Redis ran it.
 */
class LostClaimReplyIT {
    private RedisWorkers redis;

    @BeforeEach
    void start() throws IOException {
        redis = new RedisWorkers("l");
    }

    @AfterEach
    void stop() throws IOException {
        redis.close();
    }

    @Test
    void theAttemptOfAClaimWhoseReplyWasLostRunsWhenThePollComesBack() throws Exception {
        TaskIdentity id = new TaskIdentity("g", Partition.of("p"), "n", Optional.empty(), "h", 0);
        redis.tasks.submit(id.runKey(), id.runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", 1),
                new TaskInput("noop", JsonNodeFactory.instance.objectNode(), Map.of(), Map.of()));
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.port);
                UnifiedJedis viaProxy = new JedisPooled(new HostAndPort("127.0.0.1", proxy.port()),
                        DefaultJedisClientConfig.builder().timeoutMillis(400).build())) {
            RedisTaskStore store = new RedisTaskStore(viaProxy, "l");
            // the claim script is cached in Redis first, so the lost reply is the claim's, not a NOSCRIPT
            assertThat(store.claim(id.runKey(), "nobody", RedisWorkers.LEASE.toMillis(), "w1"))
                    .isEqualTo(new TaskStore.Claim.Refused("unknown"));
            PoolWorker worker = redis.worker("default", 1, store, OperatorRegistry.builtIn(), (p, i) -> { });

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
        return new RedisRunStore(redis.pool, "l").instances(List.of(id.runKey())).get(id.runKey()).stream()
                .filter(i -> i.runId().equals(id.runId())).findFirst().orElseThrow();
    }
}
