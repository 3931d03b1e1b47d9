package io.swale.store;

import java.util.Objects;

/**
 * The version of a stored run record as read, for a compare-and-put. Opaque to callers: they only hand it
 * back to the store that gave it (the Redis adapter keeps the stored text and compares it byte for byte).
 */
public record RunVersion(String value) {
    public RunVersion {
        Objects.requireNonNull(value, "value");
    }
}
