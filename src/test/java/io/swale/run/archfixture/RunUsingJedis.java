package io.swale.run.archfixture;

import redis.clients.jedis.Jedis;

/** Breaks the ports rule on purpose: run logic that talks to Redis directly. */
public final class RunUsingJedis {
    public static String ping(Jedis jedis) {
        return jedis.ping();
    }
}
