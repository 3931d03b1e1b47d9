package io.swale.store.redis;

import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A write the primary applied but too few replicas acknowledged in time (durability {@code wait}). Its message
 * starts like Redis's own {@code NOREPLICAS} reply, so callers treat it as Redis being unavailable: transient,
 * retried. The write itself stays applied on the primary; each script is idempotent or refuses a repeat.
 */
public final class TooFewReplicas extends JedisDataException {
    public TooFewReplicas(String what, long acknowledged, Durability durability) {
        super("NOREPLICAS " + what + " reached " + acknowledged + " of " + durability.replicas()
                + " replicas within " + durability.timeoutMs() + " ms (swale.redis.durability=wait)");
    }
}
