package io.swale.store.redis;

import java.util.List;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Redis error replies that say the server cannot serve now (loading, busy, read-only, …), not that a request is
 * wrong. The listeners classify failures by the same list (io.swale.kafka.ListenerFailure keeps its own copy: they
 * may not reach this adapter).
 */
public final class RedisReplies {
    private static final List<String> UNAVAILABLE = List.of("LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN",
            "CLUSTERDOWN", "READONLY", "NOREPLICAS", "MISCONF", "OOM");

    private RedisReplies() {}

    /** Whether {@code reply} is one such error: asked again later, the same request may succeed. */
    public static boolean isUnavailable(JedisDataException reply) {
        String message = reply.getMessage();
        return message != null && UNAVAILABLE.stream().anyMatch(p -> message.equals(p) || message.startsWith(p + " "))
                // refused while every client reconnects at once after a restart
                || String.valueOf(message).startsWith("ERR max number of clients reached");
    }
}
