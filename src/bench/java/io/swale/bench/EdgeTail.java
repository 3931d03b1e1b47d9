package io.swale.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * The slowest edges of a traced shape, leg by leg: where the time of the edges at or above a percentile went,
 * next to where an ordinary edge's goes, and how many of them overlapped a stop-the-world GC pause. A p99 is
 * a statement about those few edges; their legs say which queue made them slow.
 */
final class EdgeTail {
    /** The window in which {@link Burst} counts the slow edges that began together. */
    static final double BURST_WINDOW_S = 0.5;

    /** The most slow edges that began within one {@link #BURST_WINDOW_S}, and when the first of them began (s). */
    record Burst(int tailEdges, double startS) {
        /** Slides the window over {@code sortedStartsS}; none gives (0, 0). */
        static Burst of(List<Double> sortedStartsS) {
            Burst most = new Burst(0, 0);
            int from = 0;
            for (int to = 0; to < sortedStartsS.size(); to++) {
                while (sortedStartsS.get(to) - sortedStartsS.get(from) >= BURST_WINDOW_S) {
                    from++;
                }
                if (to - from + 1 > most.tailEdges()) {
                    most = new Burst(to - from + 1, sortedStartsS.get(from));
                }
            }
            return most;
        }
    }

    /** One edge as the steps saw it: upstream finished → downstream claimed, and its legs in {@code StepTrace.EDGE_LEGS} order. */
    record Edge(long fromNanos, long toNanos, long[] legNanos) {
        long nanos() {
            return toNanos - fromNanos;
        }
    }

    /** What the tail at one percentile measured. */
    record Summary(double percentile, double thresholdMs, int edges, int tailEdges, Map<String, Double> tailLegMeanMs,
            Map<String, Double> allLegMeanMs, double tailShareWithPause, double allShareWithPause,
            double tailPauseMeanMs, int pauses, double pauseMaxMs, long firstEdgeEpochMs,
            List<Double> tailStartsS, Burst burst) {

        /** The figures under {@code into}, legs' means in ms. */
        void put(ObjectNode into) {
            into.put("percentile", percentile);
            into.put("threshold_ms", Report.round(thresholdMs));
            into.put("edges", edges);
            into.put("tail_edges", tailEdges);
            ObjectNode tail = into.putObject("tail_leg_mean_ms");
            tailLegMeanMs.forEach((k, v) -> tail.put(k, Report.round(v)));
            ObjectNode all = into.putObject("all_leg_mean_ms");
            allLegMeanMs.forEach((k, v) -> all.put(k, Report.round(v)));
            into.put("tail_share_with_gc_pause", Report.round(tailShareWithPause));
            into.put("all_share_with_gc_pause", Report.round(allShareWithPause));
            into.put("tail_gc_paused_mean_ms", Report.round(tailPauseMeanMs));
            into.put("gc_pauses", pauses);
            into.put("gc_pause_max_ms", Report.round(pauseMaxMs));
            // when each slow edge began, from the first edge: slow edges in bursts point to a stall, not a queue
            into.put("first_edge_epoch_ms", firstEdgeEpochMs);
            tailStartsS.forEach(into.putArray("tail_edge_starts_s")::add);
            into.put("busiest_half_second_tail_edges", burst.tailEdges());
            into.put("busiest_half_second_start_s", burst.startS());
        }

        /** A line per leg, the tail's mean against all edges', then the pauses. */
        String lines(String indent) {
            StringBuilder t = new StringBuilder(String.format("%sedges at or above p%s (%.3f ms): %d of %d; mean ms of"
                    + " each leg, theirs against all edges'%n", indent, percentile, thresholdMs, tailEdges, edges));
            tailLegMeanMs.forEach((k, v) -> t.append(String.format("%s  %-52s %9.3f %9.3f%n", indent, StepTrace.label(k),
                    v, allLegMeanMs.get(k))));
            t.append(String.format("%s  overlapping a GC pause: %.1f %% of them, %.1f %% of all; %.3f ms of pause in"
                    + " theirs on average (%d pauses, the longest %.1f ms)%n", indent, 100 * tailShareWithPause,
                    100 * allShareWithPause, tailPauseMeanMs, pauses, pauseMaxMs));
            t.append(String.format("%s  %d of them began within %.1f s of each other, from %.1f s after the first edge%n",
                    indent, burst.tailEdges(), BURST_WINDOW_S, burst.startS()));
            return t.toString();
        }
    }

    private final List<String> legKeys;
    private final List<Edge> edges = new ArrayList<>();
    private final List<long[]> pauses = new ArrayList<>();

    EdgeTail(List<String> legKeys) {
        this.legKeys = List.copyOf(legKeys);
    }

    void add(Edge edge) {
        if (edge.legNanos().length != legKeys.size()) {
            throw new IllegalArgumentException("an edge has " + legKeys.size() + " legs, not " + edge.legNanos().length);
        }
        edges.add(edge);
    }

    /** A stop-the-world pause, start and end in the edges' nanoseconds. */
    void addPause(long startNanos, long endNanos) {
        pauses.add(new long[] {startNanos, endNanos});
    }

    int edges() {
        return edges.size();
    }

    /** The edges at or above {@code percentile} (of upstream finished → claimed), against all of them. */
    Summary summarize(double percentile) {
        if (edges.isEmpty()) {
            return new Summary(percentile, Double.NaN, 0, 0, Map.of(), Map.of(), Double.NaN, Double.NaN, Double.NaN,
                    pauses.size(), maxPauseMs(), 0, List.of(), Burst.of(List.of()));
        }
        long[] sorted = edges.stream().mapToLong(Edge::nanos).sorted().toArray();
        int at = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(percentile / 100 * sorted.length) - 1));
        long threshold = sorted[at];
        List<Edge> tail = edges.stream().filter(e -> e.nanos() >= threshold).toList();
        long first = edges.stream().mapToLong(Edge::fromNanos).min().orElseThrow();
        List<Double> starts = tail.stream().mapToLong(Edge::fromNanos).sorted()
                .mapToObj(t -> Math.round((t - first) / 1e6) / 1e3).toList();
        return new Summary(percentile, threshold / 1e6, edges.size(), tail.size(), legMeans(tail), legMeans(edges),
                shareWithPause(tail), shareWithPause(edges),
                tail.stream().mapToLong(this::pausedNanos).average().orElse(0) / 1e6, pauses.size(), maxPauseMs(),
                first / 1_000_000, starts, Burst.of(starts));
    }

    private Map<String, Double> legMeans(List<Edge> of) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < legKeys.size(); i++) {
            int leg = i;
            out.put(legKeys.get(i), of.stream().mapToLong(e -> e.legNanos()[leg]).average().orElse(Double.NaN) / 1e6);
        }
        return out;
    }

    private double shareWithPause(List<Edge> of) {
        return of.stream().filter(e -> pausedNanos(e) > 0).count() / (double) of.size();
    }

    /** How much of the edge's span the pauses covered. */
    private long pausedNanos(Edge e) {
        long paused = 0;
        for (long[] p : pauses) {
            paused += Math.max(0, Math.min(p[1], e.toNanos()) - Math.max(p[0], e.fromNanos()));
        }
        return paused;
    }

    private double maxPauseMs() {
        return pauses.stream().mapToLong(p -> p[1] - p[0]).max().orElse(0) / 1e6;
    }
}
