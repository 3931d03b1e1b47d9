package io.swale.run;

import io.swale.store.redis.TestRedisCluster;
import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link GraphRunRacesIT}'s scenarios with every {@link RunHarness} on a 3-primary Redis Cluster. */
class GraphRunRacesClusterIT extends GraphRunRacesIT {
    private static TestRedisCluster cluster;

    @BeforeAll
    static void startCluster() throws IOException {
        cluster = TestRedisCluster.start();
        RunHarness.shared = Optional.of(cluster.redis);
    }

    @AfterAll
    static void stopCluster() throws IOException {
        RunHarness.shared = Optional.empty();
        cluster.close();
    }
}
