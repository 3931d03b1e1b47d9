package io.swale.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;

/** Redis's clock: TIME, sent with a sample key so a Cluster client can route the keyless command. */
final class RedisTime {
    private RedisTime() {
    }

    static long nowMs(UnifiedJedis redis) {
        List<?> t = (List<?>) redis.sendCommand("swale:time", Protocol.Command.TIME);
        return Long.parseLong(text(t.get(0))) * 1000 + Long.parseLong(text(t.get(1))) / 1000;
    }

    private static String text(Object o) {
        return o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(o);
    }
}
