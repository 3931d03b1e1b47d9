package io.swale.store.redis;

import io.swale.record.RequestRecord;
import io.swale.store.RequestStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/**
 * Request records as strings; the record and its expiry entry ({@code req:<id>}) are one Lua call. A record
 * also lives at most the retention window (a Redis TTL set as it is written, spec §12, §14 #26), so requests
 * never fill Redis even while the retention pass is stopped.
 */
public final class RedisRequestStore implements RequestStore {
    private static final Duration LONGEST_TTL = Duration.ofDays(365L * 100);

    private final JedisPool pool;
    private final RedisKeys keys;
    private final RedisScripts scripts = new RedisScripts();
    private final long ttlMs;

    /** Records without a TTL: only the retention pass removes them. */
    public RedisRequestStore(JedisPool pool, String prefix) {
        this(pool, prefix, Duration.ZERO);
    }

    public RedisRequestStore(JedisPool pool, String prefix, Duration retention) {
        this.pool = pool;
        this.keys = new RedisKeys(prefix);
        this.ttlMs = ttlMs(retention);
    }

    /** The TTL of a request record, ms; 0 (none) for a window too long to be one. */
    static long ttlMs(Duration retention) {
        return retention.isNegative() || retention.compareTo(LONGEST_TTL) > 0 ? 0 : retention.toMillis();
    }

    @Override
    public Optional<RequestRecord> get(String id) {
        try (Jedis j = pool.getResource()) {
            return Optional.ofNullable(j.get(keys.request(id))).map(json -> RequestCodec.decode(id, json));
        }
    }

    @Override
    public boolean putIfAbsent(RequestRecord record) {
        String id = record.id();
        try (Jedis j = pool.getResource()) {
            Object r = scripts.request.call(j, List.of(keys.request(id), keys.expiry()), List.of(
                    RequestCodec.encode(record), Long.toString(record.handledAtMs()), RedisKeys.requestExpiryMember(id),
                    Long.toString(ttlMs)));
            return r instanceof Long n && n == 1L;
        }
    }
}
