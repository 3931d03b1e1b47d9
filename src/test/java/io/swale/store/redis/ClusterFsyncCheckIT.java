package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** durability=fsync on a Cluster: CONFIG is per node, so every node is checked, not only one key's node. */
@WithTestRedisCluster
class ClusterFsyncCheckIT {
    private static TestRedisCluster cluster;

    @BeforeAll
    static void connect(TestRedisCluster started) {
        cluster = started;
    }

    @AfterAll
    static void letTheNodesStop() {
        // a node still writing its first AOF refuses SIGTERM ("Writing initial AOF, can't exit"): the stop would hang
        cluster.nodes().forEach(n -> {
            try (Jedis j = new Jedis(n)) {
                j.configSet("appendonly", "no");
            }
        });
    }

    @Test
    void aNodeWithoutFsyncStopsStartUpAndNamesTheNode() {
        // a node that owns some sample key is set right, the others are not: checking one node would pass
        List<HostAndPort> nodes = List.copyOf(cluster.nodes());
        List<String> wrong = new java.util.ArrayList<>();
        for (HostAndPort n : nodes) {
            try (Jedis j = new Jedis(n)) {
                if (ownsConfigSample(j)) {
                    fsync(j);
                } else {
                    wrong.add(n.toString());
                }
            }
        }
        assertThat(wrong).as("some node does not own the sample key").isNotEmpty();
        // the check names the first wrong node it reads, in no fixed order
        assertThatThrownBy(() -> RedisLayout.requireFsync(cluster.redis)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("appendonly no")
                .satisfies(e -> assertThat(wrong).anyMatch(w -> e.getMessage().contains("node " + w + ")")));

        for (HostAndPort n : nodes) {
            try (Jedis j = new Jedis(n)) {
                fsync(j);
            }
        }
        RedisLayout.requireFsync(cluster.redis);
    }

    /** The key the single-node check routes by: only its owner answers GET without a MOVED redirect. */
    private static boolean ownsConfigSample(Jedis j) {
        try {
            j.get("swale:config");
            return true;
        } catch (JedisDataException e) {
            return false;
        }
    }

    private static void fsync(Jedis j) {
        j.configSet("appendfsync", "always");
        j.configSet("appendonly", "yes");
    }
}
