package io.swale.store;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A task instance as submitted: pending, no attempt yet. The store adds its own stamps (dispatch and submit
 * times, token, step and attempt counters).
 *
 * @param maxAttempts attempts each step gets (retries + 1)
 * @param readyUs when the scheduler found the node ready (epoch µs), read by the latency metrics and the bench
 */
public record PendingInstance(String node, Optional<String> asset, String definition, long rerun, String pool,
        long maxAttempts, OptionalLong readyUs) {
    public PendingInstance {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(asset, "asset");
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(readyUs, "readyUs");
    }

    public PendingInstance(String node, Optional<String> asset, String definition, long rerun, String pool,
            long maxAttempts) {
        this(node, asset, definition, rerun, pool, maxAttempts, OptionalLong.empty());
    }
}
