package io.swale.config;

import java.util.Set;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redis clients for tests that start their own servers (the service builds its client from
 * {@code spring.data.redis.*} in {@code config.redis.RedisClientFactory}): a standalone {@link JedisPooled} or a
 * {@link JedisCluster}, both {@link UnifiedJedis} as every store takes.
 */
public final class RedisClients {
    /** Connections per node: the listeners, the pool workers' heartbeats and the periodic jobs share them. */
    static final int MAX_CONNECTIONS = 64;
    private static final int CLUSTER_MAX_ATTEMPTS = 5;

    private RedisClients() {
    }

    /** A pooled client to one Redis. */
    public static UnifiedJedis standalone(HostAndPort address, JedisClientConfig client) {
        return new JedisPooled(poolConfig(), address, client);
    }

    /** A client to a Redis Cluster, found from any of its nodes. */
    public static UnifiedJedis cluster(Set<HostAndPort> nodes, JedisClientConfig client) {
        return new JedisCluster(nodes, client, CLUSTER_MAX_ATTEMPTS, poolConfig());
    }

    /** The client settings without credentials or TLS: tests and local mode. */
    public static JedisClientConfig plain(int timeoutMs) {
        return DefaultJedisClientConfig.builder().timeoutMillis(timeoutMs).build();
    }

    private static GenericObjectPoolConfig<Connection> poolConfig() {
        ConnectionPoolConfig config = new ConnectionPoolConfig();
        config.setMaxTotal(MAX_CONNECTIONS);
        config.setMaxIdle(MAX_CONNECTIONS / 2);
        config.setMinIdle(4);
        return config;
    }
}
