package io.swale.store.redis;

import java.io.IOException;
import java.net.ServerSocket;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.embedded.RedisServer;

/** A real redis-server on a free loopback port, without persistence, and a pool to it: the store tests' Redis. */
final class TestRedis implements AutoCloseable {
    private final RedisServer server;
    final UnifiedJedis pool;
    final int port;

    private TestRedis(RedisServer server, UnifiedJedis pool, int port) {
        this.server = server;
        this.pool = pool;
        this.port = port;
    }

    static TestRedis start() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
        server.start();
        return new TestRedis(server, new JedisPooled("127.0.0.1", port), port);
    }

    @Override
    public void close() throws IOException {
        pool.close();
        server.stop();
    }
}
