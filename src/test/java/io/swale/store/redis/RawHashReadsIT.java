package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/** A hash read with its values as bytes, over both protocols a client may speak to a real redis-server. */
@WithTestRedis
class RawHashReadsIT {
    private static TestRedis redis;

    @BeforeAll
    static void connect(TestRedis started) {
        redis = started;
    }

    @ParameterizedTest
    @EnumSource(RedisProtocol.class)
    void everyFieldComesBackWithItsValueByteForByte(RedisProtocol protocol) {
        String key = "raw:" + protocol;
        redis.pool.hset(key, Map.of("a", "{\"state\":\"pending\"}", "nœud", "été ✓", "empty", ""));
        try (UnifiedJedis client = new JedisPooled(new HostAndPort("127.0.0.1", redis.port),
                DefaultJedisClientConfig.builder().protocol(protocol).build())) {
            Response<Map<String, byte[]>> read;
            Response<Map<String, byte[]>> missing;
            try (AbstractPipeline p = client.pipelined()) {
                read = RawHashReads.hgetAll(p, key);
                missing = RawHashReads.hgetAll(p, key + ":none");
                p.sync();
            }

            assertThat(read.get()).containsOnlyKeys("a", "nœud", "empty");
            assertThat(new String(read.get().get("a"), StandardCharsets.UTF_8)).isEqualTo("{\"state\":\"pending\"}");
            assertThat(new String(read.get().get("nœud"), StandardCharsets.UTF_8)).isEqualTo("été ✓");
            assertThat(read.get().get("empty")).isEmpty();
            assertThat(missing.get()).isEmpty();
        }
    }

    @Test
    void aClusterPipelineRoutesTheReadToTheKeysNode() throws Exception {
        try (TestRedisCluster cluster = TestRedisCluster.start()) {
            // keys of other slots in one pipeline: each read goes to the node that holds its key
            for (String key : List.of("{a}raw", "{b}raw", "{c}raw")) {
                cluster.redis.hset(key, "f", key);
            }
            List<Response<Map<String, byte[]>>> reads = new ArrayList<>();
            try (AbstractPipeline p = cluster.redis.pipelined()) {
                for (String key : List.of("{a}raw", "{b}raw", "{c}raw")) {
                    reads.add(RawHashReads.hgetAll(p, key));
                }
                p.sync();
            }

            assertThat(reads).extracting(r -> new String(r.get().get("f"), StandardCharsets.UTF_8))
                    .containsExactly("{a}raw", "{b}raw", "{c}raw");
        }
    }
}
