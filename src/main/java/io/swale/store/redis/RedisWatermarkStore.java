package io.swale.store.redis;

import io.swale.store.WatermarkStore;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/** Watermarks in one Redis hash, schedule → ms; a watermark only moves forward. */
public final class RedisWatermarkStore implements WatermarkStore {
    private static final Logger log = LoggerFactory.getLogger(RedisWatermarkStore.class);
    private static final String ADVANCE = """
            local current = redis.call('HGET', KEYS[1], ARGV[1])
            if current and tonumber(current) >= tonumber(ARGV[2]) then
              return 0
            end
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            return 1
            """;

    private final JedisPool pool;
    private final RedisKeys keys;

    public RedisWatermarkStore(JedisPool pool, String prefix) {
        this.pool = pool;
        this.keys = new RedisKeys(prefix);
    }

    @Override
    public Map<String, Long> watermarks() {
        Map<String, Long> out = new TreeMap<>();
        try (Jedis j = pool.getResource()) {
            j.hgetAll(keys.watermarks()).forEach((schedule, ms) -> {
                try {
                    out.put(schedule, Long.parseLong(ms));
                } catch (NumberFormatException e) {
                    log.warn("skipping malformed watermark schedule={} value={}", schedule, ms);
                }
            });
        }
        return out;
    }

    @Override
    public boolean advance(String schedule, long fireMs) {
        try (Jedis j = pool.getResource()) {
            Object moved = j.eval(ADVANCE, List.of(keys.watermarks()), List.of(schedule, Long.toString(fireMs)));
            return moved instanceof Long n && n == 1L;
        }
    }
}
