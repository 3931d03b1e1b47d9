package io.swale.store.redis;

import io.swale.record.RequestRecord;
import io.swale.store.RequestStore;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/** Request records as strings; the record and its expiry entry ({@code req:<id>}) are one Lua call. */
public final class RedisRequestStore implements RequestStore {
    private final JedisPool pool;
    private final RedisKeys keys;
    private final RedisScripts scripts = new RedisScripts();

    public RedisRequestStore(JedisPool pool, String prefix) {
        this.pool = pool;
        this.keys = new RedisKeys(prefix);
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
                    RequestCodec.encode(record), Long.toString(record.handledAtMs()), RedisKeys.requestExpiryMember(id)));
            return r instanceof Long n && n == 1L;
        }
    }
}
