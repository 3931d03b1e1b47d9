package io.swale.store.redis;

import io.swale.store.ExpiryStore;
import io.swale.store.RunKey;
import io.swale.store.RunVersion;
import io.swale.store.StoredRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.resps.Tuple;

/**
 * Retention in Redis. A run's own keys (record, node records, task instances, inputs) share its hash tag
 * and go in one WATCH/MULTI/EXEC that compares the record's bytes; the global indexes are cleaned after,
 * only while the run is still absent.
 */
public final class RedisExpiryStore implements ExpiryStore {
    private static final String REMOVE_ENTRY = """
            local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
            if score and tonumber(score) == tonumber(ARGV[2]) then
              return redis.call('ZREM', KEYS[1], ARGV[1])
            end
            return 0
            """;
    private static final String FORGET_GRAPH_IF_EMPTY = """
            if redis.call('ZCARD', KEYS[1]) == 0 then
              return redis.call('SREM', KEYS[2], ARGV[1])
            end
            return 0
            """;

    private final JedisPool pool;
    private final RedisKeys keys;

    public RedisExpiryStore(JedisPool pool, String prefix) {
        this.pool = pool;
        this.keys = new RedisKeys(prefix);
    }

    @Override
    public List<Entry> due(long maxMs, int offset, int limit) {
        try (Jedis j = pool.getResource()) {
            List<Entry> out = new ArrayList<>();
            for (Tuple t : j.zrangeByScoreWithScores(keys.expiry(), "-inf", Long.toString(maxMs), offset, limit)) {
                out.add(new Entry(t.getElement(), (long) t.getScore()));
            }
            return out;
        }
    }

    @Override
    public boolean removeEntry(Entry entry) {
        try (Jedis j = pool.getResource()) {
            Object removed = j.eval(REMOVE_ENTRY, List.of(keys.expiry()), List.of(entry.target(), Long.toString(entry.atMs())));
            return removed instanceof Long n && n == 1L;
        }
    }

    @Override
    public Optional<StoredRun> run(RunKey key) {
        String raw;
        try (Jedis j = pool.getResource()) {
            raw = j.get(keys.run(key));
        }
        return raw == null ? Optional.empty() : Optional.of(new StoredRun(new RunVersion(raw),
                RunRecordCodec.decode(key.id(), raw)));
    }

    @Override
    public boolean expireRun(RunKey key, RunVersion expected, Entry entry) {
        String runKey = keys.run(key);
        try (Jedis j = pool.getResource()) {
            j.watch(runKey);
            if (!expected.value().equals(j.get(runKey))) {
                j.unwatch();
                return false;
            }
            Transaction t = j.multi();
            t.del(runKey, keys.nodeRecords(key), keys.instances(key), keys.inputs(key), keys.attempts(key));
            if (t.exec() == null) {
                return false;
            }
            if (!j.exists(runKey)) {
                j.zrem(keys.runsOfGraph(key.graph()), key.partition().key());
                j.zrem(keys.activeRuns(), key.id());
                j.eval(FORGET_GRAPH_IF_EMPTY, List.of(keys.runsOfGraph(key.graph()), keys.graphsWithRuns()),
                        List.of(key.graph()));
            }
        }
        removeEntry(entry);
        return true;
    }

    @Override
    public RequestExpiry expireRequest(String id, Entry entry) {
        String requestKey = keys.request(id);
        try (Jedis j = pool.getResource()) {
            j.watch(requestKey);
            String raw = j.get(requestKey);
            if (raw == null || RequestCodec.decode(id, raw).handledAtMs() != entry.atMs()) {
                j.unwatch();
                removeEntry(entry);
                return RequestExpiry.STALE;
            }
            Transaction t = j.multi();
            t.del(requestKey);
            if (t.exec() == null) {
                return RequestExpiry.CHANGED;
            }
        }
        removeEntry(entry);
        return RequestExpiry.REMOVED;
    }
}
