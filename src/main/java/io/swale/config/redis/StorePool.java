package io.swale.config.redis;

import java.util.Optional;
import redis.clients.jedis.JedisPool;

/**
 * The {@link JedisPool} the store classes take on this branch, for the topology given: one server directly, or
 * the primary the sentinels name, followed through failover by {@link FollowingJedisFactory}. A Cluster needs
 * the store on {@link redis.clients.jedis.UnifiedJedis} with single-slot keys and is refused here.
 *
 * @param pool the store's pool
 * @param follower what re-points the pool after a Sentinel failover (standalone: none)
 */
public record StorePool(JedisPool pool, Optional<FollowingJedisFactory> follower) {

    public static StorePool of(RedisClientFactory clients, JedisPrimaryProbe probe) {
        return switch (clients.settings().topology()) {
            case RedisTopology.Standalone s -> new StorePool(clients.standalonePool(), Optional.empty());
            case RedisTopology.Sentinel s -> {
                var config = new redis.clients.jedis.JedisPoolConfig();
                clients.applyPool(config);
                FollowingJedisFactory f = FollowingJedisFactory.pool(probe.sentinelPrimary(s),
                        clients.dataNodeConfig(), config);
                yield new StorePool(f.jedisPool(), Optional.of(f));
            }
            case RedisTopology.Cluster c -> throw new InvalidRedisSettingsException(java.util.List.of(
                    "spring.data.redis.cluster.nodes: this build's store writes keys of several hash slots in one"
                            + " script, which a Redis Cluster refuses (CROSSSLOT); use a standalone or"
                            + " Sentinel-managed Redis until the store is sharded"));
        };
    }
}
