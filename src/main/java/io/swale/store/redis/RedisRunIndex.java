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
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.resps.Tuple;

/**
 * {@link RunIndex} on the sorted sets {@link RedisRunStore} keeps: the per-graph run index (all scores 0,
 * so its rank order is partition order) and the expiry index, where a settle puts the run at its settle
 * time.
 */
public final class RedisRunIndex implements RunIndex {
    private static final String RUN_MEMBER = "run:";

    private final JedisPool pool;
    private final RedisKeys keys;

    public RedisRunIndex(JedisPool pool, String prefix) {
        this.pool = pool;
        this.keys = new RedisKeys(prefix);
    }

    @Override
    public List<Partition> partitionsNewestFirst(String graph, int offset, int limit) {
        if (limit <= 0 || offset < 0) {
            return List.of();
        }
        try (Jedis j = pool.getResource()) {
            List<Partition> out = new ArrayList<>();
            for (String p : j.zrevrange(keys.runsOfGraph(graph), offset, (long) offset + limit - 1)) {
                if (Partition.isValid(p)) {
                    out.add(Partition.of(p));
                }
            }
            return out;
        }
    }

    @Override
    public List<Partition> partitionsNewestFirst(String graph, Optional<String> from, Optional<String> to, int offset,
            int limit) {
        if (limit <= 0 || offset < 0) {
            return List.of();
        }
        try (Jedis j = pool.getResource()) {
            List<Partition> out = new ArrayList<>();
            // every score is 0, so the lexical range is the partition range
            for (String p : j.zrevrangeByLex(keys.runsOfGraph(graph), max(to), min(from), offset, limit)) {
                if (Partition.isValid(p)) {
                    out.add(Partition.of(p));
                }
            }
            return out;
        }
    }

    @Override
    public long runCount(String graph, Optional<String> from, Optional<String> to) {
        try (Jedis j = pool.getResource()) {
            return j.zlexcount(keys.runsOfGraph(graph), min(from), max(to));
        }
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
        try (Jedis j = pool.getResource()) {
            Pipeline p = j.pipelined();
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
        try (Jedis j = pool.getResource()) {
            Map<RunKey, Long> out = new LinkedHashMap<>();
            for (Tuple t : j.zrangeByScoreWithScores(keys.expiry(), sinceMs, Double.POSITIVE_INFINITY)) {
                String member = t.getElement();
                if (member.startsWith(RUN_MEMBER)) {
                    RunKey.parse(member.substring(RUN_MEMBER.length()))
                            .ifPresent(k -> out.put(k, (long) t.getScore()));
                }
            }
            return out;
        }
    }
}
