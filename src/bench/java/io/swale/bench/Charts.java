package io.swale.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The bench's chart: eight panels in one PNG (XChart, headless). */
final class Charts {
    private static final double[] PERCENTILES = {1, 5, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100};

    private Charts() {}

    static void write(Report report, Path file) throws IOException {
        List<Chart<?, ?>> charts = new ArrayList<>();
        charts.add(edgeDistribution(report));
        charts.add(throughput(report));
        charts.add(legs(report));
        charts.add(makespan(report));
        charts.add(kafkaRequests(report));
        charts.add(SustainedCharts.rate(report));
        charts.add(SustainedCharts.latency(report));
        charts.add(SustainedCharts.lag(report));
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        String name = file.toString();
        BitmapEncoder.saveBitmap(charts, charts.size() / 2, 2, name.endsWith(".png") ? name.substring(0, name.length() - 4) : name,
                BitmapEncoder.BitmapFormat.PNG);
    }

    /** Edge latency by percentile, x in "nines": 1 = p90, 2 = p99, 3 = p99.9. */
    private static XYChart edgeDistribution(Report report) {
        XYChart c = new XYChartBuilder().width(800).height(520).title("Edge latency (upstream terminated → downstream started)")
                .xAxisTitle("percentile, in nines (1 = p90, 2 = p99, 3 = p99.9)").yAxisTitle("ms (log)").build();
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setYAxisDecimalPattern("0.###");
        for (ShapeResult s : report.shapes) {
            if (s.edge.count() > 0) {
                addPercentiles(c, s.name, s.edge);
            }
        }
        if (report.baselines != null) {
            addPercentiles(c, "Kafka two-hop", report.baselines.kafkaTwoHop);
            addPercentiles(c, "Kafka one hop", report.baselines.kafkaHop);
        }
        return c;
    }

    private static void addPercentiles(XYChart c, String name, Dist d) {
        double[] x = new double[PERCENTILES.length];
        double[] y = new double[PERCENTILES.length];
        for (int i = 0; i < PERCENTILES.length; i++) {
            double p = Math.min(PERCENTILES[i], 99.99);
            x[i] = -Math.log10(1 - p / 100);
            y[i] = Math.max(0.001, PERCENTILES[i] == 100 ? d.maxMs() : d.ms(PERCENTILES[i]));
        }
        c.addSeries(name, x, y).setMarker(SeriesMarkers.CIRCLE);
    }

    private static CategoryChart throughput(Report report) {
        CategoryChart c = new CategoryChartBuilder().width(800).height(520).title("Throughput by shape")
                .xAxisTitle("shape").yAxisTitle("task instances/s").build();
        c.getStyler().setLegendVisible(false);
        c.getStyler().setYAxisDecimalPattern("#,###");
        List<String> names = new ArrayList<>();
        List<Number> values = new ArrayList<>();
        for (ShapeResult s : report.shapes) {
            names.add(s.name + " (" + s.tasks + ")");
            values.add(Double.isNaN(s.tasksPerS()) ? 0 : s.tasksPerS());
        }
        if (names.isEmpty()) {
            names.add("none");
            values.add(0);
        }
        c.addSeries("tasks/s", names, values);
        return c;
    }

    /** The p50 and p99 of each leg of an edge next to the baselines. */
    private static CategoryChart legs(Report report) {
        ShapeResult s = report.latencyShape();
        CategoryChart c = new CategoryChartBuilder().width(800).height(520).title("Legs of an edge (" + s.name + ") and baselines")
                .yAxisTitle("ms").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setXAxisLabelRotation(20);
        c.getStyler().setYAxisDecimalPattern("0.##");
        List<String> names = new ArrayList<>(List.of("edge", "terminated→ready", "ready→submitted", "submitted→started"));
        List<Dist> dists = new ArrayList<>(List.of(s.edge, s.terminatedToReady, s.readyToSubmitted, s.submittedToStarted));
        if (report.baselines != null) {
            names.addAll(List.of("Kafka two-hop", "Kafka hop", "Redis EVALSHA"));
            dists.addAll(List.of(report.baselines.kafkaTwoHop, report.baselines.kafkaHop, report.baselines.redisScriptRtt));
        }
        List<Number> p50 = new ArrayList<>();
        List<Number> p99 = new ArrayList<>();
        for (Dist d : dists) {
            p50.add(d.count() == 0 ? 0 : d.ms(50));
            p99.add(d.count() == 0 ? 0 : d.ms(99));
        }
        c.addSeries("p50", names, p50);
        c.addSeries("p99", names, p99);
        return c;
    }

    /** Kafka requests per task instance by kind, stacked, for each shape and each sustained rate. */
    private static CategoryChart kafkaRequests(Report report) {
        CategoryChart c = new CategoryChartBuilder().width(800).height(520)
                .title("Kafka requests per task instance (" + report.kafkaRequestsSource.wireName() + ")")
                .yAxisTitle("requests / task instance").build();
        c.getStyler().setStacked(true);
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setXAxisLabelRotation(20);
        c.getStyler().setYAxisDecimalPattern("0.##");
        List<ShapeResult> all = new ArrayList<>(report.shapes);
        report.rates.forEach(r -> all.add(r.shape));
        List<String> names = new ArrayList<>();
        for (ShapeResult s : all) {
            names.add(s.name);
        }
        if (names.isEmpty()) {
            names.add("none");
        }
        String[] kinds = {"produce", "fetch", "offset commit", "other"};
        for (int k = 0; k < kinds.length; k++) {
            List<Number> v = new ArrayList<>();
            for (ShapeResult s : all) {
                v.add(Math.max(0, s.kafkaPerTask()[k]));
            }
            if (v.isEmpty()) {
                v.add(0);
            }
            c.addSeries(kinds[k], names, v);
        }
        return c;
    }

    private static XYChart makespan(Report report) {
        XYChart c = new XYChartBuilder().width(800).height(520).title("Chain makespan (requested → settled)")
                .xAxisTitle("nodes in the chain").yAxisTitle("ms").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        List<Double> x = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> max = new ArrayList<>();
        for (ShapeResult s : report.sweep) {
            x.add((double) s.nodesPerRun);
            p50.add(s.makespan.ms(50));
            max.add(s.makespan.maxMs());
        }
        if (x.isEmpty()) {
            x.add(0.0);
            p50.add(0.0);
            max.add(0.0);
        }
        c.addSeries("p50", x, p50).setMarker(SeriesMarkers.CIRCLE);
        c.addSeries("max", x, max).setMarker(SeriesMarkers.DIAMOND);
        return c;
    }
}
