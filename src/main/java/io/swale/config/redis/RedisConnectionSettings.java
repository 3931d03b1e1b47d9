package io.swale.config.redis;

/**
 * Everything Swale needs to connect to Redis, checked.
 *
 * @param topology which servers
 * @param client how each connection is opened
 */
public record RedisConnectionSettings(RedisTopology topology, RedisClientOptions client) {
}
