package io.swale.it;

import io.swale.store.redis.TestRedisCluster;
import java.io.IOException;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import redis.clients.jedis.UnifiedJedis;

/**
 * Puts the stores of a test context on a real 3-primary Redis Cluster: its client is the primary
 * {@link UnifiedJedis}, which every store takes. (Singleton locks stay on local mode's redis-server.)
 */
@TestConfiguration(proxyBeanMethods = false)
public class ClusterRedisConfiguration {
    @Bean(destroyMethod = "close")
    TestRedisCluster testRedisCluster() throws IOException {
        return TestRedisCluster.start();
    }

    /** Closed with its cluster. */
    @Bean(destroyMethod = "")
    @Primary
    UnifiedJedis clusterRedis(TestRedisCluster cluster) {
        return cluster.redis;
    }
}
