package io.swale.bench;

import io.swale.definition.DefinitionFormat;
import io.swale.graph.Graph;
import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.record.RecordCodec;
import io.swale.record.RunState;
import io.swale.run.Adoption;
import io.swale.run.DefinitionCatalog;
import io.swale.run.GraphRuns;
import io.swale.store.RunKey;
import io.swale.store.redis.RedisKeys;
import io.swale.store.redis.RunRecordCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.Response;
import tools.jackson.databind.JsonNode;

/**
 * Runs a graph through the application (publish, adopt, start runs through {@link GraphRuns}) and reads
 * back the stamps the scripts and the scheduler left in each task instance.
 */
final class ShapeRunner {
    private final DefinitionCatalog catalog;
    private final Adoption adoption;
    private final GraphRuns graphRuns;
    private final UnifiedJedis pool;
    private final RedisKeys keys;
    /** The bench's own connections: one to the standalone server, or one to each node of a Cluster. */
    private final List<Jedis> own;
    /** The process id of each Redis node, read once: they do not change while the bench runs. */
    private final List<Long> redisPids;
    /** On a Cluster, the bench's own client for reading runs, routed by key; not one of the application's. */
    private final java.util.Optional<JedisCluster> clusterReads;
    private final CpuMeter cpu = new CpuMeter();
    private final KafkaRequests kafka;
    /** Commands the bench sent on its own connection, left out of the application's counts. */
    private long ownCommands;
    /** Of those, the run reads while waiting for runs to settle, left out of the application's {@code get} calls. */
    private long ownGets;
    private final Map<String, String> hashes = new HashMap<>();
    private final SettleStamps settles;
    /** The runs of the shape being measured that were timed one at a time: requested and settled, epoch µs. */
    private final Map<Partition, long[]> timedInUs = new HashMap<>();

    ShapeRunner(DefinitionCatalog catalog, Adoption adoption, GraphRuns graphRuns, UnifiedJedis pool, String keyPrefix,
            KafkaRequests kafka, SettleStamps settles) {
        this.kafka = kafka;
        this.settles = settles;
        this.catalog = catalog;
        this.adoption = adoption;
        this.graphRuns = graphRuns;
        this.pool = pool;
        this.keys = new RedisKeys(keyPrefix);
        // the bench's own connections, out of the application's pools: a Cluster's figures are its nodes' sums
        this.own = switch (pool) {
            case JedisPooled p -> List.of(new Jedis(p.getPool().getResource()));
            case JedisCluster c -> c.getClusterNodes().values().stream().map(n -> new Jedis(n.getResource())).toList();
            default -> throw new IllegalArgumentException("the bench measures a standalone Redis or a Cluster, not a "
                    + pool.getClass().getName());
        };
        this.clusterReads = pool instanceof JedisCluster c
                ? java.util.Optional.of(new JedisCluster(c.getClusterNodes().keySet().stream().map(HostAndPort::from)
                        .collect(java.util.stream.Collectors.toSet())))
                : java.util.Optional.empty();
        this.redisPids = readRedisPids();
    }

    /** Connections the application borrowed from its pool (its pools, on a Cluster) so far. */
    static long borrows(UnifiedJedis redis) {
        return switch (redis) {
            case JedisPooled p -> p.getPool().getBorrowedCount();
            case JedisCluster c -> c.getClusterNodes().values().stream().mapToLong(n -> n.getBorrowedCount()).sum();
            default -> -1;
        };
    }


    /** Publishes and adopts a definition; returns its graph. */
    Graph publish(String toml) {
        var published = catalog.publish(toml.getBytes(StandardCharsets.UTF_8), DefinitionFormat.TOML);
        hashes.put(published.graph(), published.hash());
        var report = adoption.sync();
        if (!report.adopted().contains(published.graph()) && report.refused().containsKey(published.graph())) {
            throw new IllegalStateException("not adopted: " + report.refused().get(published.graph()));
        }
        return published.definition().graph();
    }

    String graphHash(String graph) {
        return hashes.get(graph);
    }

    /**
     * Runs {@code runs} partitions of the graph: one after another when {@code sequential}, all started at
     * once otherwise.
     */
    ShapeResult run(String name, String toml, int runs, boolean sequential, long timeoutMs) {
        // one run at a time is where an edge's legs are worth their recording
        return measure(name, toml, runs, sequential, (graph, partitions) -> {
            if (sequential) {
                for (Partition p : partitions) {
                    long requestedUs = SettleStamps.nowUs();
                    graphRuns.startRuns(graph, List.of(p));
                    awaitSettled(graph, List.of(p), timeoutMs);
                    settles.awaitSettledSince(graph, requestedUs, 1_000)
                            .ifPresent(settledUs -> timedInUs.put(p, new long[] {requestedUs, settledUs}));
                }
            } else {
                graphRuns.startRuns(graph, partitions);
                awaitSettled(graph, partitions, timeoutMs);
            }
        });
    }

    /** How a shape starts its runs and waits until they have settled. */
    @FunctionalInterface
    interface Driver {
        void drive(String graph, List<Partition> partitions) throws Exception;
    }

    /** Publishes the graph, lets the driver run {@code runs} partitions of it, and measures around it. */
    ShapeResult measure(String name, String toml, int runs, Driver driver) {
        return measure(name, toml, runs, false, driver);
    }

    /** As {@link #measure(String, String, int, Driver)}; with {@code traceSteps}, also each edge's legs (JFR). */
    ShapeResult measure(String name, String toml, int runs, boolean traceSteps, Driver driver) {
        Graph graph = publish(toml);
        List<Partition> partitions = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            partitions.add(Partition.of("r" + i));
        }
        ShapeResult r = new ShapeResult(name, runs, graph.nodes().size());
        Map<Long, long[]> cpu0 = cpu.snapshot();
        long jit0 = CpuMeter.jitMs();
        double redisCpu0 = redisCpuMs();
        long borrows0 = borrows(pool);
        long commands0 = redisCommands();
        RedisCommandStats byCommand0 = redisCommandStats();
        long ownGets0 = ownGets;
        KafkaRequests.Counts kafka0 = kafka.snapshot();
        Map<String, ContextSwitches.ThreadCount> switches0 = ContextSwitches.snapshot(redisPids);
        java.util.Optional<StepTrace> trace = traceSteps ? java.util.Optional.of(StepTrace.start())
                : java.util.Optional.empty();
        timedInUs.clear();
        long t0 = System.nanoTime();
        try {
            driver.drive(graph.name(), partitions);
        } catch (RuntimeException e) {
            trace.ifPresent(StepTrace::discard);
            throw e;
        } catch (Exception e) {
            trace.ifPresent(StepTrace::discard);
            throw new IllegalStateException(name + ": " + e, e);
        }
        r.wallS = (System.nanoTime() - t0) / 1e9;
        r.kafka = kafka.snapshot().minus(kafka0);
        Map<Long, long[]> cpu1 = cpu.snapshot();
        r.contextSwitches = ContextSwitches.delta(switches0, ContextSwitches.snapshot(redisPids));
        r.cpuMs = CpuMeter.delta(cpu0, cpu1);
        r.allocatedKb = CpuMeter.allocatedKb(cpu0, cpu1);
        r.jitMs = CpuMeter.jitMs() - jit0;
        r.redisCpuMs = redisCpuMs() - redisCpu0;
        r.redisBorrows = borrows(pool) - borrows0;
        r.redisCommands = redisCommands() - commands0;
        r.redisByCommand = redisCommandStats().minus(byCommand0).lessCalls("get", ownGets - ownGets0);
        java.util.Optional<StepTrace.Steps> steps = trace.map(t -> t.stop(graph.name()));
        collect(graph, partitions, r, steps);
        steps.ifPresent(t -> t.gcPauses().forEach(p -> r.tail.addPause(p[0], p[1])));
        if (r.tail.edges() > 0) {
            r.slowestEdges = java.util.Optional.of(r.tail.summarize(Report.TAIL_PERCENTILE));
        }
        r.heapAfterGcMb = CpuMeter.heapAfterGcMb();
        return r;
    }

    void startRuns(String graph, List<Partition> partitions) {
        graphRuns.startRuns(graph, partitions);
    }

    /**
     * Polls the runs' records until each has settled, oldest first and stopping at the first still active,
     * so that watching a thousand runs costs the system under test next to nothing. The figures come from
     * the stamps, not from when this loop noticed.
     */
    void awaitSettled(String graph, List<Partition> partitions, long timeoutMs) {
        java.util.ArrayDeque<RunKey> open = new java.util.ArrayDeque<>();
        for (Partition part : partitions) {
            open.add(new RunKey(graph, part));
        }
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!open.isEmpty()) {
            while (!open.isEmpty()) {
                String json = clusterReads.isPresent() ? clusterReads.get().get(keys.run(open.peek()))
                        : own.getFirst().get(keys.run(open.peek()));
                ownCommands++;
                ownGets++;
                if (json == null || RunRecordCodec.decode(keys.run(open.peek()), json)
                        .state() == RunState.ACTIVE) {
                    break;
                }
                open.poll();
            }
            if (open.isEmpty()) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(open.size() + " run(s) of " + graph + " not settled after " + timeoutMs
                        + " ms, e.g. " + open.peek().id());
            }
            sleep(partitions.size() > 1 ? 20 : 2);
        }
    }

    /** Reads each run's record and task instances and fills the distributions. */
    private void collect(Graph graph, List<Partition> partitions, ShapeResult r,
            java.util.Optional<StepTrace.Steps> steps) {
        long firstReady = Long.MAX_VALUE;
        long lastEnded = Long.MIN_VALUE;
        for (int from = 0; from < partitions.size(); from += 200) {
            List<Partition> batch = partitions.subList(from, Math.min(partitions.size(), from + 200));
            AbstractPipeline p = clusterReads.isPresent() ? clusterReads.get().pipelined() : own.getFirst().pipelined();
            List<Response<String>> runs = new ArrayList<>();
            List<Response<Map<String, String>>> instances = new ArrayList<>();
            for (Partition part : batch) {
                RunKey k = new RunKey(graph.name(), part);
                runs.add(p.get(keys.run(k)));
                instances.add(p.hgetAll(keys.instances(k)));
            }
            p.sync();
            for (int i = 0; i < batch.size(); i++) {
                RunKey k = new RunKey(graph.name(), batch.get(i));
                GraphRunRecord run = RunRecordCodec.decode(keys.run(k), runs.get(i).get());
                if (run.state() != RunState.COMPLETE) {
                    throw new IllegalStateException("run " + k.id() + " settled " + run.state().wireName());
                }
                Map<String, long[]> stamps = new HashMap<>();
                instances.get(i).get().forEach((runId, json) -> {
                    JsonNode o = RecordCodec.JSON.readTree(json);
                    stamps.put(o.path("node").asString(), new long[] {us(o, "ready_us"), us(o, "submitted_us"),
                            us(o, "started_us"), us(o, "ended_us")});
                });
                r.tasks += stamps.size();
                long runFirstStarted = Long.MAX_VALUE;
                long runLastEnded = Long.MIN_VALUE;
                Map<String, String> lastUpstream = new HashMap<>();
                for (var e : stamps.entrySet()) {
                    long[] s = e.getValue();
                    firstReady = Math.min(firstReady, s[0]);
                    runFirstStarted = Math.min(runFirstStarted, s[2]);
                    runLastEnded = Math.max(runLastEnded, s[3]);
                    r.readyToSubmitted.recordUs(s[1] - s[0]);
                    r.submittedToStarted.recordUs(s[2] - s[1]);
                    r.startedToTerminated.recordUs(s[3] - s[2]);
                    // an edge starts from the upstream that ended last
                    graph.upstreams(e.getKey()).stream()
                            .max(java.util.Comparator.comparingLong(up -> stamps.get(up)[3])).ifPresent(up -> {
                                long upstreamEnded = stamps.get(up)[3];
                                r.edge.recordUs(s[2] - upstreamEnded);
                                r.terminatedToReady.recordUs(s[0] - upstreamEnded);
                                lastUpstream.put(e.getKey(), up);
                            });
                }
                lastEnded = Math.max(lastEnded, runLastEnded);
                run.settledAtMs().ifPresent(settled -> r.makespanOfRecords.recordUs((settled - run.requestedAtMs()) * 1000));
                long[] timed = timedInUs.get(batch.get(i));
                if (timed != null) {
                    r.runsTimedInUs++;
                    r.requestedToFirstStarted.recordUs(runFirstStarted - timed[0]);
                    r.makespan.recordUs(timed[1] - timed[0]);
                    r.lastTerminatedToSettled.recordUs(timed[1] - runLastEnded);
                } else {
                    r.requestedToFirstStarted.recordUs(runFirstStarted - run.requestedAtMs() * 1000);
                    if (run.settledAtMs().isPresent()) {
                        long settled = run.settledAtMs().get();
                        r.makespan.recordUs((settled - run.requestedAtMs()) * 1000);
                        r.lastTerminatedToSettled.recordUs(settled * 1000 - runLastEnded);
                    }
                }
                steps.ifPresent(t -> t.addLegs(stamps.keySet(), k.partition().key(), lastUpstream, r.steps,
                        r.tail));
            }
            ownCommands += 2L * batch.size();
        }
        r.spanS = (lastEnded - firstReady) / 1e6;
    }

    private static long us(JsonNode o, String field) {
        String v = o.path(field).asString("");
        if (v.isEmpty()) {
            throw new IllegalStateException("task instance without `" + field + "`: " + o);
        }
        return Long.parseLong(v);
    }

    /** used_cpu_sys + used_cpu_user of the Redis server, ms. */
    double redisCpuMs() {
        ownCommands += own.size(); // one INFO to each node
        double ms = 0;
        for (Jedis j : own) {
            for (String line : j.info("cpu").split("\r?\n")) {
                if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                    ms += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim()) * 1000;
                }
            }
        }
        return ms;
    }

    /** The process id of each Redis node, as the server reports it (on this machine or not). */
    List<Long> redisPids() {
        return redisPids;
    }

    private List<Long> readRedisPids() {
        ownCommands += own.size(); // one INFO to each node
        List<Long> pids = new ArrayList<>();
        for (Jedis j : own) {
            for (String line : j.info("server").split("\r?\n")) {
                if (line.startsWith("process_id:")) {
                    pids.add(Long.parseLong(line.substring(line.indexOf(':') + 1).trim()));
                }
            }
        }
        return pids;
    }

    /** Calls and server time per command; the bench's own {@code info} calls are dropped by the difference. */
    RedisCommandStats redisCommandStats() {
        ownCommands += own.size(); // one INFO to each node
        return RedisCommandStats.read(own);
    }

    /** Commands the server processed, less those this bench sent on its own connection. */
    long redisCommands() {
        ownCommands += own.size(); // one INFO to each node
        long total = 0;
        for (Jedis j : own) {
            long n = -1;
            for (String line : j.info("stats").split("\r?\n")) {
                if (line.startsWith("total_commands_processed:")) {
                    n = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            if (n < 0) {
                return -1;
            }
            total += n;
        }
        return total - ownCommands;
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    void close() {
        own.forEach(Jedis::close);
        clusterReads.ifPresent(JedisCluster::close);
    }
}
