package io.swale.settings;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.redis.*}.
 *
 * @param keyPrefix Prefix of every Redis key Swale writes, so several installations can share one Redis.
 * @param durability When a write counts as done (spec §14 #23): {@code none} — once the primary applied it;
 *     {@code wait} — once {@code wait-replicas} replicas acknowledged it ({@code WAIT} after each submit, claim,
 *     settle and compare-and-put; too few acknowledgements fail the step as a transient error, retried later);
 *     {@code fsync} — the primary must run with {@code appendonly yes} and {@code appendfsync always}: checked at
 *     start, which fails when Redis says otherwise (a Redis that hides {@code CONFIG} gets a warning).
 * @param waitReplicas Replicas that must acknowledge a write under {@code durability=wait}.
 * @param waitTimeout How long a write waits for those acknowledgements under {@code durability=wait}.
 */
public record RedisSettings(@DefaultValue("swale") String keyPrefix, @DefaultValue("none") String durability,
        @DefaultValue("1") int waitReplicas, @DefaultValue("100ms") Duration waitTimeout) {

    /** {@code swale.redis.durability}, parsed. */
    public enum Durability {
        NONE, WAIT, FSYNC
    }

    /** {@link #durability()} as a value. */
    public Durability durabilityMode() {
        return Durability.valueOf(durability.toUpperCase(java.util.Locale.ROOT));
    }

    public RedisSettings {
        if (keyPrefix == null || keyPrefix.isBlank()) {
            throw new IllegalArgumentException("swale.redis.key-prefix must not be blank");
        }
        durability = durability == null ? "none" : durability.strip().toLowerCase(java.util.Locale.ROOT);
        if (!List.of("none", "wait", "fsync").contains(durability)) {
            throw new IllegalArgumentException(
                    "swale.redis.durability must be none, wait or fsync, was `" + durability + "`");
        }
        if (waitReplicas < 1) {
            throw new IllegalArgumentException("swale.redis.wait-replicas must be at least 1, was " + waitReplicas);
        }
        if (waitTimeout == null || waitTimeout.isNegative() || waitTimeout.isZero()) {
            // WAIT with 0 ms blocks until enough replicas answer: a lost replica would hang every write
            throw new IllegalArgumentException("swale.redis.wait-timeout must be positive, was " + waitTimeout);
        }
    }

}
