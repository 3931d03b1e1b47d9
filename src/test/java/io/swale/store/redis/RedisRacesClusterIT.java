package io.swale.store.redis;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link RedisRacesIT}'s scenarios on a 3-primary Redis Cluster: Redis refuses any script whose keys span two slots
 * (CROSSSLOT), so each scenario also checks that its atomic units stay in one slot.
 */
class RedisRacesClusterIT extends RedisRacesIT {
    private static TestRedisCluster cluster;

    @BeforeAll
    static void startCluster() throws IOException {
        cluster = TestRedisCluster.start();
        pool = cluster.redis;
    }

    @AfterAll
    static void stopCluster() throws IOException {
        cluster.close();
    }
}
