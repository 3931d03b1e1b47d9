package io.swale.store;

import java.util.Map;

/**
 * The watermark of each schedule (spec §4.4): the time of its last fired occurrence. Advanced with every
 * firing, independent of the expression, and never cleared, not even by retention.
 */
public interface WatermarkStore {
    /** Schedule name (graph) → watermark in ms. */
    Map<String, Long> watermarks();

    /** Moves the watermark to {@code fireMs} unless it is already there or later; true when it moved. */
    boolean advance(String schedule, long fireMs);
}
