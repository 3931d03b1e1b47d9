package io.swale.store.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Script calls on any topology, with the durability of the writes that need it. {@code WAIT} counts only the
 * writes of the connection it runs on, and a pooled client lends any connection to each call: so a durable
 * write and its {@code WAIT} go in one pipeline, which holds one connection per node (on a Cluster the WAIT is
 * routed by the same key as the write, so to the same node and connection).
 */
final class ScriptCalls {
    private final UnifiedJedis redis;
    private final Durability durability;

    ScriptCalls(UnifiedJedis redis, Durability durability) {
        this.redis = redis;
        this.durability = durability;
    }

    UnifiedJedis redis() {
        return redis;
    }

    Object call(RedisScripts.Script script, List<String> keys, List<String> args) {
        return script.call(redis, keys, args);
    }

    /** A write that counts once {@link Durability} is met; {@link TooFewReplicas} otherwise. */
    Object durable(RedisScripts.Script script, List<String> keys, List<String> args) {
        if (!durability.waits()) {
            return call(script, keys, args);
        }
        try {
            return durableOnce(script, keys, args, false);
        } catch (JedisNoScriptException e) {
            return durableOnce(script, keys, args, true);
        }
    }

    private Object durableOnce(RedisScripts.Script script, List<String> keys, List<String> args, boolean source) {
        Response<Object> result;
        Response<Long> acknowledged;
        try (AbstractPipeline p = redis.pipelined()) {
            result = source ? p.eval(script.source(), keys, args) : p.evalsha(script.sha(), keys, args);
            acknowledged = p.waitReplicas(keys.getFirst(), durability.replicas(), durability.timeoutMs());
            p.sync();
        }
        Object out = result.get();
        check(acknowledged.get(), script.name() + " on " + keys.getFirst());
        return out;
    }

    private void check(long acknowledged, String what) {
        if (acknowledged < durability.replicas()) {
            throw new TooFewReplicas(what, acknowledged, durability);
        }
    }

    /**
     * One script per request, all in one pipeline; outcomes in the order of the requests. A NOSCRIPT answer
     * (Redis restarted and lost its scripts) sends that request alone through {@code alone}, which loads it;
     * a script that fails, in the pipeline or alone, answers through {@code failed}.
     * With {@code durable}, one {@code WAIT} per slot tag written follows the scripts.
     */
    <R, T> List<T> pipelined(RedisScripts.Script script, List<R> requests, Function<R, List<String>> keysOf,
            Function<R, List<String>> argsOf, Function<Object, T> outcome, Function<R, T> alone,
            Function<JedisDataException, T> failed, boolean durable) {
        List<Response<Object>> responses = new ArrayList<>(requests.size());
        Map<String, Response<Long>> waits = new LinkedHashMap<>();
        boolean waiting = durable && durability.waits();
        try (AbstractPipeline p = redis.pipelined()) {
            List<String> written = new ArrayList<>();
            for (R r : requests) {
                List<String> keys = keysOf.apply(r);
                responses.add(p.evalsha(script.sha(), keys, argsOf.apply(r)));
                written.add(keys.getFirst());
            }
            if (waiting) {
                for (String key : written) {
                    if (!waits.containsKey(tag(key))) {
                        waits.put(tag(key), p.waitReplicas(key, durability.replicas(), durability.timeoutMs()));
                    }
                }
            }
            p.sync();
        }
        waits.forEach((tag, acknowledged) -> check(acknowledged.get(), script.name() + " batch on " + tag));
        List<T> out = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            try {
                out.add(outcome.apply(responses.get(i).get()));
            } catch (JedisNoScriptException e) {
                out.add(alone(requests.get(i), alone, failed));
            } catch (JedisDataException e) {
                out.add(failed.apply(e));
            }
        }
        return out;
    }

    /** A request sent again alone after a NOSCRIPT answer: its script's failure is still its own. */
    private static <R, T> T alone(R request, Function<R, T> alone, Function<JedisDataException, T> failed) {
        try {
            return alone.apply(request);
        } catch (JedisDataException e) {
            return failed.apply(e);
        }
    }

    /** The hash tag of a key (its slot group), or the key when it has none. */
    static String tag(String key) {
        int open = key.indexOf('{');
        int close = open < 0 ? -1 : key.indexOf('}', open + 1);
        return close > open + 1 ? key.substring(open + 1, close) : key;
    }
}
