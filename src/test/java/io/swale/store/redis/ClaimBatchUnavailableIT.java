package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.store.PendingInstance;
import io.swale.store.RunKey;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.embedded.RedisServer;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A poll's claims sent together to a server that cannot serve them (here busy with a script; loading, read-only
 * after a failover and short of replicas answer alike): thrown, as a single claim's error is, so the pool
 * listener retries its dispatches. Was: each answered "refused", and the dispatches were committed unclaimed,
 * left to the reconciler's repair of stale dispatches a minute or more later.
 */
class ClaimBatchUnavailableIT {
    @Test
    void claimsABusyServerRefusedAllAreThrownAndClaimedOnceItServes() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                .setting("lua-time-limit 50").build();
        server.start();
        Thread busy;
        try (JedisPooled pool = new JedisPooled("127.0.0.1", port)) {
            RedisTaskStore tasks = new RedisTaskStore(pool, "b");
            RunKey key = new RunKey("g", Partition.of("p"));
            for (String node : List.of("a", "b")) {
                assertThat(tasks.submit(key, key.runId(node, 0), new PendingInstance(node, Optional.empty(), "h", 0,
                        "default", 1), new TaskInput("noop", JsonNodeFactory.instance.nullNode(), Map.of(), Map.of())))
                        .isEqualTo(TaskStore.Submit.NEW);
            }
            List<TaskStore.ClaimRequest> poll = List.of(new TaskStore.ClaimRequest(key, key.runId("a", 0)),
                    new TaskStore.ClaimRequest(key, key.runId("b", 0)));
            busy = Thread.ofPlatform().daemon().start(() -> {
                try (Jedis j = new Jedis("127.0.0.1", port)) {
                    j.eval("while true do end", 0);
                } catch (JedisDataException killed) {
                    // SCRIPT KILL ends it
                }
            });
            try (Jedis probe = new Jedis("127.0.0.1", port)) {
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    try {
                        probe.ping();
                        return false;
                    } catch (JedisBusyException e) {
                        return true;
                    }
                });
            }

            try {
                assertThatThrownBy(() -> tasks.claimAll(poll, 60_000, "w")).isInstanceOf(JedisDataException.class)
                        .hasMessageStartingWith("BUSY");
            } finally {
                try (Jedis killer = new Jedis("127.0.0.1", port)) {
                    killer.scriptKill();
                }
                busy.join(10_000);
            }
            assertThat(tasks.claimAll(poll, 60_000, "w")).allMatch(TaskStore.Claim.Claimed.class::isInstance)
                    .hasSize(2);
        } finally {
            server.stop();
        }
    }
}
