package io.swale.store;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a node's record is kept in its run: by asset for an asset node (so a renamed node that keeps its
 * asset keeps its record), by node name otherwise.
 */
public record RecordField(String node, Optional<String> asset) {
    public RecordField {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(asset, "asset");
    }

    /** The key of the record in {@link RunView#nodeRecords()}: {@code a:<asset>} or {@code t:<node>}. */
    public String key() {
        return asset.map(a -> "a:" + a).orElse("t:" + node);
    }
}
