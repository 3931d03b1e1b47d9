package io.swale.bench;

import io.swale.graph.Partition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The sustained-rate shape: runs of a two-node chain requested at a steady pace (a feeder every few
 * milliseconds starts the runs due by then, never a burst ahead of time) so that the task instances offered
 * per second hold a target, while a sampler reads the consumer lag of every channel. Edges and makespans
 * come from the stamps, as for the other shapes; the achieved rate is task instances over first ready → last
 * terminated, so a system that falls behind stretches its span past the feeding time.
 */
final class SustainedRate {
    private static final long TICK_MS = 5;
    private static final long LAG_EVERY_MS = 250;

    /** What one target rate measured. */
    static final class Result {
        final int targetPerS;
        final double seconds;
        ShapeResult shape;
        /** Task instances requested per second over the feeding time, as the feeder managed. */
        double requestedPerS;
        long lagMax;
        long lagAtFeedEnd;
        long lagAtSettled;
        int lagSamples;
        final Map<String, Long> lagMaxByChannel = new LinkedHashMap<>();

        Result(int targetPerS, double seconds) {
            this.targetPerS = targetPerS;
            this.seconds = seconds;
        }

        double achievedPerS() {
            return shape.tasksPerS();
        }
    }

    private final ShapeRunner runner;
    private final LagSampler lag;

    SustainedRate(ShapeRunner runner, LagSampler lag) {
        this.runner = runner;
        this.lag = lag;
    }

    Result run(String graphName, int targetPerS, double seconds, long timeoutMs) {
        if (targetPerS <= 0 || seconds <= 0) {
            throw new IllegalArgumentException("a sustained rate needs a positive rate and duration, not " + targetPerS
                    + "/s for " + seconds + " s");
        }
        int nodes = 2;
        double runsPerS = targetPerS / (double) nodes;
        int runs = Math.max(1, (int) Math.round(runsPerS * seconds));
        Result result = new Result(targetPerS, seconds);
        result.shape = runner.measure("rate" + targetPerS, Shapes.chain(graphName, nodes), runs,
                (graph, partitions) -> feed(graph, partitions, runsPerS, nodes, timeoutMs, result));
        return result;
    }

    private void feed(String graph, List<Partition> partitions, double runsPerS, int nodes, long timeoutMs,
            Result result) throws Exception {
        ScheduledExecutorService feeder = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "bench-feeder"));
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "bench-lag"));
        CountDownLatch fed = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int[] next = {0};
        long[] fedAt = {0};
        long t0 = System.nanoTime();
        try {
            sampler.scheduleWithFixedDelay(() -> sampleLag(result), 0, LAG_EVERY_MS, TimeUnit.MILLISECONDS);
            feeder.scheduleAtFixedRate(() -> {
                if (fed.getCount() == 0) {
                    return;
                }
                try {
                    // the runs due by now, counted from the start: a late tick catches up, an early one waits
                    double elapsed = (System.nanoTime() - t0) / 1e9;
                    int due = (int) Math.min(partitions.size(), Math.floor(elapsed * runsPerS) + 1);
                    if (due > next[0]) {
                        runner.startRuns(graph, partitions.subList(next[0], due));
                        next[0] = due;
                    }
                    if (next[0] == partitions.size()) {
                        fedAt[0] = System.nanoTime();
                        fed.countDown();
                    }
                } catch (RuntimeException e) {
                    failure.set(e);
                    fed.countDown();
                }
            }, 0, TICK_MS, TimeUnit.MILLISECONDS);
            if (!fed.await((long) (result.seconds * 1000) + timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the feeder requested " + next[0] + " of " + partitions.size()
                        + " runs in " + (result.seconds * 1000 + timeoutMs) + " ms");
            }
            feeder.shutdown();
            if (failure.get() != null) {
                throw new IllegalStateException("requesting runs failed: " + failure.get(), failure.get());
            }
            double fedS = (fedAt[0] - t0) / 1e9;
            result.requestedPerS = partitions.size() * nodes / Math.max(fedS, 1e-3);
            synchronized (result) {
                result.lagAtFeedEnd = total(lag.sample());
                result.lagMax = Math.max(result.lagMax, result.lagAtFeedEnd);
            }
            runner.awaitSettled(graph, partitions, timeoutMs);
        } finally {
            feeder.shutdownNow();
            sampler.shutdown();
            sampler.awaitTermination(30, TimeUnit.SECONDS);
        }
        result.lagAtSettled = total(lag.sample());
    }

    private void sampleLag(Result result) {
        try {
            Map<String, Long> now = lag.sample();
            synchronized (result) {
                result.lagSamples++;
                result.lagMax = Math.max(result.lagMax, total(now));
                now.forEach((ch, v) -> result.lagMaxByChannel.merge(ch, v, Math::max));
            }
        } catch (Exception e) {
            // a slow answer under load is no reason to stop the shape: the next sample tries again
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static long total(Map<String, Long> lags) {
        return lags.values().stream().mapToLong(Long::longValue).sum();
    }
}
