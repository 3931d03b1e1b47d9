package io.swale.bench;

import io.swale.graph.Partition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

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
    private static final int FEEDERS = 4;

    /** What one target rate measured. */
    static final class Result {
        final int targetPerS;
        final double seconds;
        ShapeResult shape;
        /** Task instances requested per second, first request → last request answered, as the feeder managed. */
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

    /** Holds {@code targetPerS} for {@code seconds}; with {@code traceSteps}, each edge's legs are recorded (JFR). */
    Result run(String graphName, int targetPerS, double seconds, boolean traceSteps, long timeoutMs) {
        if (targetPerS <= 0 || seconds <= 0) {
            throw new IllegalArgumentException("a sustained rate needs a positive rate and duration, not " + targetPerS
                    + "/s for " + seconds + " s");
        }
        int nodes = 2;
        double runsPerS = targetPerS / (double) nodes;
        int runs = Math.max(1, (int) Math.round(runsPerS * seconds));
        Result result = new Result(targetPerS, seconds);
        result.shape = runner.measure("rate" + targetPerS, Shapes.chain(graphName, nodes), runs, traceSteps,
                (graph, partitions) -> feed(graph, partitions, runsPerS, nodes, timeoutMs, result));
        return result;
    }

    private void feed(String graph, List<Partition> partitions, double runsPerS, int nodes, long timeoutMs,
            Result result) throws Exception {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "bench-feeder"));
        // requests go out on a few threads, as an API serves concurrent callers: one slow request does not hold
        // back the next tick's
        java.util.concurrent.atomic.AtomicInteger threads = new java.util.concurrent.atomic.AtomicInteger();
        ExecutorService requesters = Executors.newFixedThreadPool(FEEDERS,
                r -> new Thread(r, "bench-feeder-" + threads.incrementAndGet()));
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "bench-lag"));
        CountDownLatch ticked = new CountDownLatch(1);
        List<Future<?>> requests = new java.util.concurrent.CopyOnWriteArrayList<>();
        int[] next = {0};
        long t0 = System.nanoTime();
        try {
            sampler.scheduleWithFixedDelay(() -> sampleLag(result), 0, LAG_EVERY_MS, TimeUnit.MILLISECONDS);
            ticker.scheduleAtFixedRate(() -> {
                if (ticked.getCount() == 0) {
                    return;
                }
                // the runs due by now, counted from the start: a late tick catches up, an early one waits
                double elapsed = (System.nanoTime() - t0) / 1e9;
                int due = (int) Math.min(partitions.size(), Math.floor(elapsed * runsPerS) + 1);
                if (due > next[0]) {
                    List<Partition> batch = partitions.subList(next[0], due);
                    requests.add(requesters.submit(() -> runner.startRuns(graph, batch)));
                    next[0] = due;
                }
                if (next[0] == partitions.size()) {
                    ticked.countDown();
                }
            }, 0, TICK_MS, TimeUnit.MILLISECONDS);
            if (!ticked.await((long) (result.seconds * 1000) + timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the feeder requested " + next[0] + " of " + partitions.size()
                        + " runs in " + (result.seconds * 1000 + timeoutMs) + " ms");
            }
            ticker.shutdown();
            for (Future<?> f : requests) {
                try {
                    f.get(timeoutMs, TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    throw new IllegalStateException("requesting runs failed: " + e.getCause(), e.getCause());
                }
            }
            long fedAt = System.nanoTime();
            double fedS = (fedAt - t0) / 1e9;
            result.requestedPerS = partitions.size() * nodes / Math.max(fedS, 1e-3);
            synchronized (result) {
                result.lagAtFeedEnd = total(lag.sample());
                result.lagMax = Math.max(result.lagMax, result.lagAtFeedEnd);
            }
            runner.awaitSettled(graph, partitions, timeoutMs);
        } finally {
            ticker.shutdownNow();
            requesters.shutdownNow();
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
