package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.settings.SwaleProperties;
import io.swale.store.RunKey;
import io.swale.store.redis.RedisKeys;
import io.swale.store.redis.TestRedisCluster;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import redis.clients.jedis.Jedis;

/**
 * {@link GraphRunIT}'s scenarios (templated output downstream, a failing node with {@code all_done}, rerun scope,
 * cancel) with the stores on a 3-primary Redis Cluster, which refuses any script touching two slots.
 */
@Import(ClusterRedisConfiguration.class)
class GraphRunClusterIT extends GraphRunIT {
    @Autowired
    TestRedisCluster cluster;

    @Autowired
    SwaleProperties props;

    /** The stores of this context write to the cluster, not to local mode's redis-server. */
    @Test
    void theRunIsStoredOnTheCluster() {
        String g = unique("oncluster");
        api.publish(Graphs.chain(g, 2));
        api.start(g, "p");
        assertThat(awaitSettled(g, "p").get("state").asString()).isEqualTo("complete");
        String runKey = new RedisKeys(props.redis().keyPrefix()).run(new RunKey(g, Partition.of("p")));
        assertThat(cluster.nodes().stream().filter(n -> {
            try (Jedis j = new Jedis(n)) {
                return j.clusterCountKeysInSlot(redis.clients.jedis.util.JedisClusterCRC16.getSlot(runKey)) > 0
                        && j.exists(runKey);
            } catch (redis.clients.jedis.exceptions.JedisDataException moved) {
                return false;
            }
        })).hasSize(1);
    }
}
