package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.config.redis.JedisPrimaryProbe;
import io.swale.config.redis.RedisClientFactory;
import io.swale.config.redis.RedisSettingsReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import redis.clients.jedis.JedisSentineled;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/**
 * The store's UnifiedJedis, built from spring.data.redis.* on real servers: a
 * {@link JedisSentineled} that finds the primary through the sentinels and, after the primary is killed, writes
 * to the promoted replica; and the probe that sees the new primary.
 */
class RedisClientFactoryIT {

    private static RedisClientFactory factory(Map<String, Object> props) {
        var env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("test", props));
        return new RedisClientFactory(RedisSettingsReader.read(env), Optional.empty());
    }

    @Test
    void sentineledClientFollowsTheFailover(@TempDir Path dir) throws Exception {
        try (SentinelRedis redis = SentinelRedis.start(dir)) {
            RedisClientFactory clients = factory(Map.of("spring.data.redis.sentinel.master", SentinelRedis.MASTER,
                    "spring.data.redis.sentinel.nodes", redis.sentinelNodes(), "spring.data.redis.timeout", "1s"));
            JedisPrimaryProbe probe = new JedisPrimaryProbe(clients);
            var before = probe.probe().primaries().get("all");
            assertThat(before.address()).endsWith(":" + redis.primaryPort);
            try (UnifiedJedis jedis = clients.unifiedJedis()) {
                assertThat(jedis).isInstanceOf(JedisSentineled.class);
                jedis.set("{t}:k", "before");
                redis.killPrimary();
                await("writes reach the promoted replica").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                        .until(() -> "OK".equals(jedis.set("{t}:k", "after")));
                assertThat(jedis.get("{t}:k")).isEqualTo("after");
            }
            var after = probe.probe().primaries().get("all");
            assertThat(after.address()).endsWith(":" + redis.replicaPort);
            assertThat(after.runId()).isNotEqualTo(before.runId());
        }
    }

    @Test
    void standaloneClientFromAUrl(@TempDir Path dir) throws Exception {
        try (SentinelRedis redis = SentinelRedis.start(dir)) {
            RedisClientFactory clients = factory(Map.of("spring.data.redis.url",
                    "redis://127.0.0.1:" + redis.primaryPort + "/2", "spring.data.redis.client-name", "swale-it"));
            try (UnifiedJedis jedis = clients.unifiedJedis();
                    var raw = new Jedis(new HostAndPort("127.0.0.1", redis.primaryPort))) {
                jedis.set("k", "v");
                // the client wrote to database 2 under its name, as the url and client-name say
                raw.select(2);
                assertThat(raw.get("k")).isEqualTo("v");
                raw.select(0);
                assertThat(raw.get("k")).isNull();
                assertThat(raw.clientList()).contains("name=swale-it");
            }
        }
    }
}
