package io.swale.store.redis;

/**
 * When a store write counts as done (spec §14 #23). {@code replicas > 0}: after a submit, claim, settle or
 * compare-and-put, {@code WAIT replicas timeoutMs} on the connection that wrote it; fewer acknowledgements fail
 * the write with {@link TooFewReplicas}.
 */
public record Durability(int replicas, long timeoutMs) {
    /** The primary's acknowledgement is enough. */
    public static final Durability NONE = new Durability(0, 0);

    public Durability {
        if (replicas < 0 || timeoutMs < 0 || (replicas > 0 && timeoutMs == 0)) {
            throw new IllegalArgumentException("replicas and timeout must be positive: " + replicas + ", " + timeoutMs);
        }
    }

    public static Durability waitFor(int replicas, long timeoutMs) {
        return new Durability(replicas, timeoutMs);
    }

    boolean waits() {
        return replicas > 0;
    }
}
