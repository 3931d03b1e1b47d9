package io.swale.store.redis;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.exceptions.JedisDataException;

/** Start-up checks of the Redis a service writes to: the key layout it finds, and its fsync policy. */
public final class RedisLayout {
    private static final Logger log = LoggerFactory.getLogger(RedisLayout.class);

    private RedisLayout() {
    }

    /**
     * Records the shard count under the prefix, or checks the one recorded: data written with another count
     * would sit in shards no job reads, so a mismatch stops start-up.
     */
    public static void check(UnifiedJedis redis, String prefix) {
        RedisKeys keys = new RedisKeys(prefix);
        String mine = "shards=" + RedisKeys.SHARDS;
        try {
            checkOrRecord(redis, keys, mine, prefix);
        } catch (redis.clients.jedis.exceptions.JedisConnectionException e) {
            // a Redis that is down now is waited for like any outage: the check runs at the next start
            log.warn("cannot check the Redis key layout now ({}); Swale keeps starting", e.getMessage());
        }
    }

    private static void checkOrRecord(UnifiedJedis redis, RedisKeys keys, String mine, String prefix) {
        if ("OK".equals(redis.set(keys.layout(), mine, SetParams.setParams().nx()))) {
            return;
        }
        String stored = redis.get(keys.layout());
        if (stored != null && !stored.equals(mine)) {
            throw new IllegalStateException("Redis key " + keys.layout() + " says the data under prefix `" + prefix
                    + "` was written with " + stored + ", this version uses " + mine
                    + ": use another swale.redis.key-prefix or an empty Redis");
        }
    }

    /**
     * {@code swale.redis.durability=fsync}: every primary (on a Cluster: every node) must run with {@code appendonly yes} and
     * {@code appendfsync always}. A Redis that says otherwise stops start-up; one that hides {@code CONFIG}
     * (managed services rename it) gets a warning, since the policy cannot be checked.
     */
    public static void requireFsync(UnifiedJedis redis) {
        if (redis instanceof redis.clients.jedis.JedisCluster cluster) {
            // CONFIG is per node: each node that holds (or may be promoted to hold) slots needs the policy
            cluster.getClusterNodes().forEach((node, pool) -> {
                try (redis.clients.jedis.Jedis j = new redis.clients.jedis.Jedis(pool.getResource())) {
                    requireFsync(node, () -> j.configGet("append*"));
                } catch (redis.clients.jedis.exceptions.JedisConnectionException e) {
                    log.warn("swale.redis.durability=fsync: cannot reach node {} to check its fsync policy ({})",
                            node, e.getMessage());
                }
            });
            return;
        }
        requireFsync("", () -> configGet(redis));
    }

    private static void requireFsync(String node, java.util.function.Supplier<Map<String, String>> read) {
        Map<String, String> config;
        String where = node.isEmpty() ? "" : " (node " + node + ")";
        try {
            config = read.get();
        } catch (JedisDataException e) {
            log.warn("swale.redis.durability=fsync: cannot read the Redis configuration ({}); make sure the "
                    + "primary runs with appendonly yes and appendfsync always", e.getMessage());
            return;
        }
        String appendonly = Optional.ofNullable(config.get("appendonly")).orElse("?");
        String appendfsync = Optional.ofNullable(config.get("appendfsync")).orElse("?");
        if (!"yes".equals(appendonly) || !"always".equals(appendfsync)) {
            throw new IllegalStateException("swale.redis.durability=fsync needs Redis with appendonly yes and "
                    + "appendfsync always, but it has appendonly " + appendonly + " and appendfsync " + appendfsync
                    + where);
        }
    }

    private static Map<String, String> configGet(UnifiedJedis redis) {
        Object reply = redis.sendCommand("swale:config", Protocol.Command.CONFIG, "GET", "append*");
        Map<String, String> out = new java.util.HashMap<>();
        List<?> flat = reply instanceof List<?> l ? l : List.of();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            out.put(text(flat.get(i)), text(flat.get(i + 1)));
        }
        return out;
    }

    private static String text(Object o) {
        return o instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : String.valueOf(o);
    }
}
