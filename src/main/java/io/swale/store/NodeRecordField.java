package io.swale.store;

import java.util.Optional;

/**
 * Where a node's record is kept within its graph run. Asset records are keyed by asset, so a renamed node that
 * keeps its asset keeps its record; task records by node name.
 */
public final class NodeRecordField {
    private NodeRecordField() {}

    public static String of(String node, Optional<String> asset) {
        return asset.map(a -> "a:" + a).orElse("t:" + node);
    }
}
