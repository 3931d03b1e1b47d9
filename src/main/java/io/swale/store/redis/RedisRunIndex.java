package io.swale.store.redis;

import io.swale.graph.Partition;
import io.swale.store.RunIndex;
import io.swale.store.RunKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.resps.Tuple;

/**
 * {@link RunIndex} on the sorted sets {@link RedisRunStore} keeps: the per-graph run index (all scores 0,
 * so its rank order is partition order) and the expiry index of every shard, where a settle puts the run at
 * its settle time.
 */
public final class RedisRunIndex implements RunIndex {
    private static final String RUN_MEMBER = "run:";

    private final UnifiedJedis redis;
    private final RedisKeys keys;

    public RedisRunIndex(UnifiedJedis redis, String prefix) {
        this.redis = redis;
        this.keys = new RedisKeys(prefix);
    }

    @Override
    public List<Partition> partitionsNewestFirst(String graph, int offset, int limit) {
        if (limit <= 0 || offset < 0) {
            return List.of();
        }
        List<Partition> out = new ArrayList<>();
        for (String p : redis.zrevrange(keys.runsOfGraph(graph), offset, (long) offset + limit - 1)) {
            if (Partition.isValid(p)) {
                out.add(Partition.of(p));
            }
        }
        return out;
    }

    @Override
    public List<Partition> partitionsNewestFirst(String graph, Optional<String> from, Optional<String> to, int offset,
            int limit) {
        if (limit <= 0 || offset < 0) {
            return List.of();
        }
        List<Partition> out = new ArrayList<>();
        // every score is 0, so the lexical range is the partition range
        for (String p : redis.zrevrangeByLex(keys.runsOfGraph(graph), max(to), min(from), offset, limit)) {
            if (Partition.isValid(p)) {
                out.add(Partition.of(p));
            }
        }
        return out;
    }

    @Override
    public long runCount(String graph, Optional<String> from, Optional<String> to) {
        return redis.zlexcount(keys.runsOfGraph(graph), min(from), max(to));
    }

    private static String min(Optional<String> from) {
        return from.map(f -> "[" + f).orElse("-");
    }

    private static String max(Optional<String> to) {
        return to.map(t -> "[" + t).orElse("+");
    }

    @Override
    public Map<String, Long> runCounts(Collection<String> graphs) {
        Map<String, Response<Long>> pending = new LinkedHashMap<>();
        try (AbstractPipeline p = redis.pipelined()) {
            for (String g : graphs) {
                pending.put(g, p.zcard(keys.runsOfGraph(g)));
            }
            p.sync();
        }
        Map<String, Long> out = new LinkedHashMap<>();
        pending.forEach((g, r) -> out.put(g, r.get()));
        return out;
    }

    @Override
    public Map<RunKey, Long> settledSince(long sinceMs) {
        List<Response<List<Tuple>>> shards = new ArrayList<>();
        try (AbstractPipeline p = redis.pipelined()) {
            RedisKeys.shards().forEach(s -> shards.add(
                    p.zrangeByScoreWithScores(keys.expiry(s), sinceMs, Double.POSITIVE_INFINITY)));
            p.sync();
        }
        List<Tuple> all = new ArrayList<>();
        shards.forEach(r -> all.addAll(r.get()));
        all.sort(java.util.Comparator.comparingDouble(Tuple::getScore).thenComparing(Tuple::getElement));
        Map<RunKey, Long> out = new LinkedHashMap<>();
        for (Tuple t : all) {
            String member = t.getElement();
            if (member.startsWith(RUN_MEMBER)) {
                RunKey.parse(member.substring(RUN_MEMBER.length())).ifPresent(k -> out.put(k, (long) t.getScore()));
            }
        }
        return out;
    }
}
