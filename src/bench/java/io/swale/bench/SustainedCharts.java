package io.swale.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The sustained-rate panels, each against the target rate, so the knee shows where the lines bend. */
final class SustainedCharts {
    private SustainedCharts() {}

    /** Achieved and requested task instances/s against the target, with the line a system that keeps up follows. */
    static XYChart rate(Report report) {
        XYChart c = chart("Sustained rate: achieved against target", "task instances/s");
        c.getStyler().setYAxisDecimalPattern("#,###");
        add(c, report, "target (keeping up)", r -> r.targetPerS, SeriesMarkers.NONE);
        add(c, report, "requested", r -> r.requestedPerS, SeriesMarkers.DIAMOND);
        add(c, report, "achieved", SustainedRate.Result::achievedPerS, SeriesMarkers.CIRCLE);
        return c;
    }

    /** Edge and run requested → settled, p50 and p99, against the target rate (log scale). */
    static XYChart latency(Report report) {
        XYChart c = chart("Sustained rate: edge and requested → settled", "ms (log)");
        c.getStyler().setYAxisLogarithmic(!report.rates.isEmpty());
        c.getStyler().setYAxisDecimalPattern("0.###");
        add(c, report, "edge p50", r -> positive(r.shape.edge.ms(50)), SeriesMarkers.CIRCLE);
        add(c, report, "edge p99", r -> positive(r.shape.edge.ms(99)), SeriesMarkers.DIAMOND);
        add(c, report, "settled p50", r -> positive(r.shape.makespan.ms(50)), SeriesMarkers.SQUARE);
        add(c, report, "settled p99", r -> positive(r.shape.makespan.ms(99)), SeriesMarkers.TRIANGLE_UP);
        return c;
    }

    /** Consumer lag of all the application's channels together, at its highest and when the feeder stopped. */
    static XYChart lag(Report report) {
        XYChart c = chart("Sustained rate: Kafka consumer lag (all channels)", "records");
        c.getStyler().setYAxisDecimalPattern("#,###");
        add(c, report, "max", r -> r.lagMax, SeriesMarkers.CIRCLE);
        add(c, report, "at feed end", r -> r.lagAtFeedEnd, SeriesMarkers.DIAMOND);
        return c;
    }

    /** A log axis takes no zero: an empty distribution (NaN) or 0 ms is drawn at 1 µs. */
    private static double positive(double ms) {
        return Double.isNaN(ms) ? 0.001 : Math.max(0.001, ms);
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart c = new XYChartBuilder().width(800).height(520).title(title)
                .xAxisTitle("target task instances/s").yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setXAxisDecimalPattern("#,###");
        return c;
    }

    private static void add(XYChart c, Report report, String name, ToDoubleFunction<SustainedRate.Result> y,
            org.knowm.xchart.style.markers.Marker marker) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (SustainedRate.Result r : report.rates) {
            double v = y.applyAsDouble(r);
            xs.add((double) r.targetPerS);
            ys.add(Double.isNaN(v) ? 0 : v);
        }
        if (xs.isEmpty()) {
            xs.add(0.0);
            ys.add(0.0);
        }
        c.addSeries(name, xs, ys).setMarker(marker);
    }
}
