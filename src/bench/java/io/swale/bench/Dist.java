package io.swale.bench;

import org.HdrHistogram.Histogram;
import tools.jackson.databind.node.ObjectNode;

/** A latency distribution in microseconds (HdrHistogram, 3 significant digits), reported in milliseconds. */
final class Dist {
    private final Histogram h = new Histogram(3_600_000_000L, 3);

    void recordUs(long us) {
        h.recordValue(Math.max(0, Math.min(us, h.getHighestTrackableValue())));
    }

    void recordNanos(long nanos) {
        recordUs(nanos / 1_000);
    }

    void add(Dist other) {
        h.add(other.h);
    }

    long count() {
        return h.getTotalCount();
    }

    double ms(double percentile) {
        return count() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    double maxMs() {
        return count() == 0 ? Double.NaN : h.getMaxValue() / 1000.0;
    }

    double meanMs() {
        return count() == 0 ? Double.NaN : h.getMean() / 1000.0;
    }

    Histogram histogram() {
        return h;
    }

    /** {prefix}_p50_ms, _p95_ms, _p99_ms, _max_ms, _mean_ms, _count. */
    void put(ObjectNode o, String prefix) {
        o.put(prefix + "_p50_ms", Report.round(ms(50)));
        o.put(prefix + "_p95_ms", Report.round(ms(95)));
        o.put(prefix + "_p99_ms", Report.round(ms(99)));
        o.put(prefix + "_max_ms", Report.round(maxMs()));
        // a chain's makespan sums its edges, so it follows their mean, not their median
        o.put(prefix + "_mean_ms", Report.round(meanMs()));
        o.put(prefix + "_count", count());
    }

    String line() {
        return count() == 0 ? "-" : String.format("p50 %7.3f  p95 %7.3f  p99 %7.3f  max %8.3f ms  (n=%d)",
                ms(50), ms(95), ms(99), maxMs(), count());
    }
}
