package io.swale.store.redis;

import io.swale.store.ExpiryStore;
import io.swale.store.RunKey;
import io.swale.store.RunVersion;
import io.swale.store.StoredRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.resps.Tuple;

/**
 * Retention in Redis, over the expiry index of every shard. A run's own keys (record, node records, task
 * instances, inputs) share its shard's hash tag and go in one script that compares the record's bytes; the
 * cross-shard indexes are cleaned after, only while the run is still absent.
 */
public final class RedisExpiryStore implements ExpiryStore {
    private static final String RUN = "run:";

    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final RedisScripts scripts = new RedisScripts();

    public RedisExpiryStore(UnifiedJedis redis, String prefix) {
        this.redis = redis;
        this.keys = new RedisKeys(prefix);
    }

    /** The first {@code offset + limit} due entries of each shard hold the first {@code offset + limit} of all. */
    @Override
    public List<Entry> due(long maxMs, int offset, int limit) {
        List<Response<List<Tuple>>> shards = new ArrayList<>();
        try (AbstractPipeline p = redis.pipelined()) {
            RedisKeys.shards().forEach(s -> shards.add(p.zrangeByScoreWithScores(keys.expiry(s), "-inf",
                    Long.toString(maxMs), 0, offset + limit)));
            p.sync();
        }
        List<Entry> all = new ArrayList<>();
        shards.forEach(r -> r.get().forEach(t -> all.add(new Entry(t.getElement(), (long) t.getScore()))));
        all.sort(Comparator.comparingLong(Entry::atMs).thenComparing(Entry::target));
        return all.size() <= offset ? List.of() : List.copyOf(all.subList(offset, Math.min(all.size(), offset + limit)));
    }

    @Override
    public boolean removeEntry(Entry entry) {
        boolean removed = false;
        for (int shard : shardsHolding(entry)) {
            Object r = scripts.removeEntry.call(redis, List.of(keys.expiry(shard)),
                    List.of(entry.target(), Long.toString(entry.atMs())));
            removed |= r instanceof Long n && n == 1L;
        }
        return removed;
    }

    /** A run's entry is in its run's shard; a request's wherever its record went, so each shard is asked. */
    private List<Integer> shardsHolding(Entry entry) {
        if (entry.target().startsWith(RUN)) {
            Optional<RunKey> key = RunKey.parse(entry.target().substring(RUN.length()));
            if (key.isPresent()) {
                return List.of(RedisKeys.shardOf(key.get()));
            }
        }
        List<Response<Double>> scores = new ArrayList<>();
        try (AbstractPipeline p = redis.pipelined()) {
            RedisKeys.shards().forEach(s -> scores.add(p.zscore(keys.expiry(s), entry.target())));
            p.sync();
        }
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < scores.size(); s++) {
            if (scores.get(s).get() != null) {
                out.add(s);
            }
        }
        return out;
    }

    @Override
    public Optional<StoredRun> run(RunKey key) {
        String raw = redis.get(keys.run(key));
        return raw == null ? Optional.empty() : Optional.of(new StoredRun(new RunVersion(raw),
                RunRecordCodec.decode(key.id(), raw)));
    }

    @Override
    public void unlistIfAbsent(RunKey key) {
        unlist(key, keys.run(key));
    }

    @Override
    public boolean expireRun(RunKey key, RunVersion expected, Entry entry) {
        String runKey = keys.run(key);
        Object deleted = scripts.expireRun.call(redis, List.of(runKey, keys.activeRuns(key), keys.nodeRecords(key),
                keys.instances(key), keys.inputs(key), keys.attempts(key), keys.growths(key)),
                List.of(expected.value(), key.id()));
        if (!(deleted instanceof Long n && n == 1L)) {
            return false;
        }
        unlist(key, runKey);
        removeEntry(entry);
        return true;
    }

    /**
     * Takes a deleted run out of its graph's run list, which lives in another slot than the run. A start of the
     * same partition adds its entry before its run, so one that raced this removal is seen by the second look
     * and listed again.
     */
    private void unlist(RunKey key, String runKey) {
        if (redis.exists(runKey)) {
            return;
        }
        String list = keys.runsOfGraph(key.graph());
        redis.zrem(list, key.partition().key());
        if (redis.exists(runKey)) {
            redis.zadd(list, 0, key.partition().key());
            return;
        }
        scripts.forgetGraph.call(redis, List.of(list, keys.graphsWithRuns()), List.of(key.graph()));
    }

    @Override
    public RequestExpiry expireRequest(String id, Entry entry) {
        Optional<RedisRequestStore.Found> found = RedisRequestStore.find(redis, keys, id);
        if (found.isEmpty() || RequestCodec.decode(id, found.get().raw()).handledAtMs() != entry.atMs()) {
            // one it cannot delete is passed over as changed, or each read would hand it back
            return removeEntry(entry) ? RequestExpiry.STALE : RequestExpiry.CHANGED;
        }
        Object deleted = scripts.deleteIfEqual.call(redis, List.of(keys.request(found.get().shard(), id)),
                List.of(found.get().raw()));
        if (!(deleted instanceof Long n && n == 1L)) {
            return RequestExpiry.CHANGED;
        }
        // the id is free again; only this request's reservation goes (one made since for another stays)
        scripts.deleteIfEqual.call(redis, List.of(keys.requestReservation(id)), List.of(io.swale.record.RecordCodec
                .text(io.swale.record.RequestJson.request(RequestCodec.decode(id, found.get().raw()).request()))));
        removeEntry(entry);
        return RequestExpiry.REMOVED;
    }
}
