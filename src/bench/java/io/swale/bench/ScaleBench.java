package io.swale.bench;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.run.Reconciler;
import io.swale.run.RunRecords;
import io.swale.run.TaskInputs;
import io.swale.store.PendingInstance;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisKeys;
import io.swale.task.LeaseReaper;
import io.swale.task.ReconcilePass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.node.ObjectNode;

/**
 * The reconciler at scale: N active runs of the ten-node diamond created directly through the stores, each
 * mid-flight (a succeeded with its record, b and c claimed and running on a long lease), then timed
 * passes, then timed passes of the lease reaper, for which none of those leases has ended. Finally the runs leave
 * the active index and one more pass shows a pass does not grow with runs that are no longer active.
 */
final class ScaleBench {
    private static final int REAPER_PASSES = 5;
    int runs;
    double createS;
    double heapBeforeMb;
    double heapWithRunsMb;
    double passColdMs;
    double passWarmMs;
    double passBorrowsPerRun;
    double passCommandsPerRun;
    double passPeakHeapMb;
    double passAllocatedMbPerRun;
    double passInactiveMs;
    double reaperPassMs;
    double reaperCommandsPerPass;
    ReconcilePass lastPass;

    void run(ShapeRunner shapes, RunStore runStore, TaskStore tasks, Reconciler reconciler, LeaseReaper reaper,
            UnifiedJedis pool, String keyPrefix, String graphName, int n) throws Exception {
        runs = n;
        Graph graph = shapes.publish(Shapes.diamond(graphName));
        String hash = findHash(shapes, graphName);
        heapBeforeMb = CpuMeter.heapAfterGcMb();
        long t0 = System.nanoTime();
        ExecutorService creators = Executors.newFixedThreadPool(4, r -> new Thread(r, "bench-scale"));
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int part = 0; part < 4; part++) {
                int first = part;
                parts.add(creators.submit(() -> {
                    for (int i = first; i < n; i += 4) {
                        create(runStore, tasks, graph, hash, new RunKey(graphName, Partition.of("s" + i)));
                    }
                    return null;
                }));
            }
            for (Future<?> f : parts) {
                f.get();
            }
        } finally {
            creators.shutdown();
        }
        createS = (System.nanoTime() - t0) / 1e9;
        heapWithRunsMb = CpuMeter.heapAfterGcMb();

        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().threadId();
        passColdMs = timedPass(reconciler);
        CpuMeter.heapAfterGcMb();
        CpuMeter.resetHeapPeaks();
        long borrows0 = ShapeRunner.borrows(pool);
        long commands0 = shapes.redisCommands();
        long alloc0 = threads.getThreadAllocatedBytes(self);
        passWarmMs = timedPass(reconciler);
        long alloc = threads.getThreadAllocatedBytes(self) - alloc0;
        passCommandsPerRun = (shapes.redisCommands() - commands0) / (double) n;
        passBorrowsPerRun = (ShapeRunner.borrows(pool) - borrows0) / (double) n;
        passPeakHeapMb = CpuMeter.heapPeakMb();
        passAllocatedMbPerRun = alloc / 1048576.0 / n;
        if (lastPass.activeRuns() < n || lastPass.submitted() > 0 || lastPass.settled() > 0) {
            throw new IllegalStateException("the scale pass saw " + lastPass);
        }
        timeReaper(shapes, reaper);

        RedisKeys keys = new RedisKeys(keyPrefix);
        String[] ids = new String[n];
        for (int i = 0; i < n; i++) {
            ids[i] = new RunKey(graphName, Partition.of("s" + i)).id();
        }
        for (String id : ids) {
            RunKey.parse(id).ifPresent(k -> pool.zrem(keys.activeRuns(k), id)); // routed to the shard's node
        }
        passInactiveMs = timedPass(reconciler);
    }

    /** The median of five passes, and the Redis commands of one (the service's own passes may add a few). */
    private void timeReaper(ShapeRunner shapes, LeaseReaper reaper) {
        double[] ms = new double[REAPER_PASSES];
        long commands0 = shapes.redisCommands();
        for (int i = 0; i < REAPER_PASSES; i++) {
            long t = System.nanoTime();
            int reaped = reaper.pass();
            ms[i] = (System.nanoTime() - t) / 1e6;
            if (reaped > 0) {
                throw new IllegalStateException("the reaper reaped " + reaped + " leases of an hour");
            }
        }
        reaperCommandsPerPass = (shapes.redisCommands() - commands0) / (double) REAPER_PASSES;
        java.util.Arrays.sort(ms);
        reaperPassMs = ms[REAPER_PASSES / 2];
    }

    private double timedPass(Reconciler reconciler) {
        long t = System.nanoTime();
        lastPass = reconciler.pass();
        return (System.nanoTime() - t) / 1e6;
    }

    private static String findHash(ShapeRunner shapes, String graph) {
        return shapes.graphHash(graph);
    }

    /** One run mid-flight: a succeeded, b and c running. */
    private static void create(RunStore runStore, TaskStore tasks, Graph graph, String hash, RunKey key) {
        runStore.create(key, GraphRunRecord.started(hash, System.currentTimeMillis()));
        Node a = graph.node("a").orElseThrow();
        String aId = key.runId("a", 0);
        tasks.submit(key, aId, new PendingInstance("a", Optional.empty(), hash, 0, a.pool(), a.maxAttempts()),
                TaskInputs.of(graph, a, Map.of()));
        long token = ((TaskStore.Claim.Claimed) tasks.claim(key, aId, 3_600_000, "bench")).token();
        ObjectNode output = RecordCodec.JSON.createObjectNode().put("node", "a");
        NodeRecord record = new NodeRecord(NodeStatus.SUCCEEDED, aId, hash, 0, System.currentTimeMillis(),
                Optional.of(output), false, Optional.empty());
        tasks.finish(key, RunRecords.field(a), token, record);
        Map<String, NodeRecord> current = Map.of("a", record);
        for (String name : List.of("b", "c")) {
            Node node = graph.node(name).orElseThrow();
            String id = key.runId(name, 0);
            tasks.submit(key, id, new PendingInstance(name, Optional.empty(), hash, 0, node.pool(), node.maxAttempts()),
                    TaskInputs.of(graph, node, current));
            tasks.claim(key, id, 3_600_000, "bench");
        }
    }
}
