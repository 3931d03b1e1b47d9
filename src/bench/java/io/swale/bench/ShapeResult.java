package io.swale.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** What one shape measured. All stamps come from one clock (this machine's), in microseconds. */
final class ShapeResult {
    final String name;
    final int runs;
    final int nodesPerRun;
    long tasks;
    /** upstream terminated (finish script) → downstream started (claim script). */
    final Dist edge = new Dist();
    /** upstream terminated → scheduler found the downstream ready: event hop, run read, readiness. */
    final Dist terminatedToReady = new Dist();
    /** ready → submitted (submit script). */
    final Dist readyToSubmitted = new Dist();
    /** submitted → started: dispatch hop and claim. */
    final Dist submittedToStarted = new Dist();
    /** started → terminated: render, the noop operator, the finish script. */
    final Dist startedToTerminated = new Dist();
    /** Each edge's legs and each instance's own, by {@link StepTrace} leg key (one run at a time only). */
    final Map<String, Dist> steps = StepTrace.emptyLegs();
    /** The traced edges one by one, with the GC pauses meanwhile: what the slowest of them spent their time on. */
    final EdgeTail tail = StepTrace.emptyTail();
    /** The slowest of those edges leg by leg, summarized once the shape is measured; empty when none was traced. */
    Optional<EdgeTail.Summary> slowestEdges = Optional.empty();
    /**
     * requested → settled: from the bench's start call to the settle's report, µs, for runs timed one at a time
     * ({@link SettleStamps}); from the run record's two times, ms resolution, otherwise.
     */
    final Dist makespan = new Dist();
    /** requested → the run's first instance started: the run's start before its first edge (timed as above). */
    final Dist requestedToFirstStarted = new Dist();
    /** its last instance terminated → settled: the run's end after its last edge (timed as above). */
    final Dist lastTerminatedToSettled = new Dist();
    /** The run record's requested → settled, ms resolution, for every run: the makespan as earlier builds timed it. */
    final Dist makespanOfRecords = new Dist();
    /** How many runs {@link #makespan} timed in µs. */
    int runsTimedInUs;
    /** first ready → last terminated of the shape. */
    double spanS;
    /** start call → last run seen settled by the bench. */
    double wallS;
    Map<String, Double> cpuMs = new LinkedHashMap<>();
    double redisCpuMs;
    /** Heap allocated by thread group while the shape ran, KB (empty where the JVM does not count it). */
    Map<String, Double> allocatedKb = new LinkedHashMap<>();
    /** Context switches by thread group while the shape ran, with their total (empty where not counted). */
    Map<String, Long> contextSwitches = new LinkedHashMap<>();
    /** The JIT compilers' time while the shape ran, ms: a JVM still compiling measures slower than it runs later. */
    double jitMs;
    long redisBorrows;
    long redisCommands;
    /** Commands by name, scripts' inner commands included (so they add up to more than {@link #redisCommands}). */
    RedisCommandStats redisByCommand = RedisCommandStats.EMPTY;
    double heapAfterGcMb;
    /** Kafka requests and produced records while the shape ran (see {@link KafkaRequests} for whose). */
    KafkaRequests.Counts kafka = new KafkaRequests.Counts(0, 0, 0, 0, 0);

    ShapeResult(String name, int runs, int nodesPerRun) {
        this.name = name;
        this.runs = runs;
        this.nodesPerRun = nodesPerRun;
    }

    double tasksPerS() {
        return spanS <= 0 ? Double.NaN : tasks / spanS;
    }

    /** Kafka figures per task instance: produce, fetch, offset commit, other, total requests, produced records. */
    double[] kafkaPerTask() {
        double n = Math.max(1, tasks);
        return new double[] {kafka.produce() / n, kafka.fetch() / n, kafka.offsetCommit() / n, kafka.other() / n,
                kafka.total() / n, kafka.records() / n};
    }

    double cpuMsPerTask(String group) {
        return tasks == 0 ? Double.NaN : cpuMs.getOrDefault(group, 0.0) / tasks;
    }

    /** The JIT's compile time as a share of the shape's wall time (2 compiler threads can make it exceed 1). */
    double jitShareOfWall() {
        return wallS <= 0 ? Double.NaN : jitMs / (1000 * wallS);
    }

    /** Heap KB allocated per task instance by every thread of this process, NaN where not counted. */
    double allocatedKbPerTask() {
        return tasks == 0 || allocatedKb.isEmpty() ? Double.NaN
                : allocatedKb.values().stream().mapToDouble(Double::doubleValue).sum() / tasks;
    }

    /** CPU µs per task instance, every process included: this one (GC and JIT too) and redis-server. */
    double cpuUsPerTask() {
        double ms = redisCpuMs + cpuMs.values().stream().mapToDouble(Double::doubleValue).sum();
        return tasks == 0 ? Double.NaN : 1000 * ms / tasks;
    }
}
