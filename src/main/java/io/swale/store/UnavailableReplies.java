package io.swale.store;

import java.util.List;

/**
 * Error replies of the record store (Redis) that say it cannot serve now — loading, busy, read-only, short of
 * replicas — not that a request is wrong: asked again later, the same request may succeed. Here, in the port, so
 * that the store's adapter and the listeners that classify its failures read one list.
 */
public final class UnavailableReplies {
    private static final List<String> PREFIXES = List.of("LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN", "CLUSTERDOWN",
            "READONLY", "NOREPLICAS", "MISCONF", "OOM");

    private UnavailableReplies() {}

    /** Whether the error reply {@code message} is one such reply. */
    public static boolean matches(String message) {
        return message != null && (PREFIXES.stream().anyMatch(p -> message.equals(p) || message.startsWith(p + " "))
                // refused while every client reconnects at once after a restart
                || message.startsWith("ERR max number of clients reached"));
    }
}
