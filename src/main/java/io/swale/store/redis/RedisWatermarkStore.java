package io.swale.store.redis;

import io.swale.store.WatermarkStore;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/** Watermarks in one Redis hash, schedule → ms; a watermark only moves forward. */
public final class RedisWatermarkStore implements WatermarkStore {
    private static final Logger log = LoggerFactory.getLogger(RedisWatermarkStore.class);
    private final RedisScripts scripts = new RedisScripts();

    private final UnifiedJedis redis;
    private final RedisKeys keys;

    public RedisWatermarkStore(UnifiedJedis redis, String prefix) {
        this.redis = redis;
        this.keys = new RedisKeys(prefix);
    }

    @Override
    public Map<String, Long> watermarks() {
        Map<String, Long> out = new TreeMap<>();
        redis.hgetAll(keys.watermarks()).forEach((schedule, ms) -> {
            try {
                out.put(schedule, Long.parseLong(ms));
            } catch (NumberFormatException e) {
                log.warn("skipping malformed watermark schedule={} value={}", schedule, ms);
            }
        });
        return out;
    }

    @Override
    public boolean advance(String schedule, long fireMs) {
        Object moved = scripts.advance.call(redis, List.of(keys.watermarks()), List.of(schedule, Long.toString(fireMs)));
        return moved instanceof Long n && n == 1L;
    }
}
