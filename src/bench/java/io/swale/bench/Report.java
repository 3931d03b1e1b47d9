package io.swale.bench;

import io.swale.record.RecordCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Every figure of one bench: the table on stdout and the JSON file. */
final class Report {
    /** Which edges {@link EdgeTail} reports leg by leg: those that set the p99 the targets are held to. */
    static final double TAIL_PERCENTILE = 99;

    double loadBefore;
    double loadAfter;
    Map<String, Object> options;
    Map<String, Object> producerConfig;
    Map<String, Object> consumerConfig;
    Baselines baselines;
    /** Absent when the bench was told to skip it. */
    DesignFloor floor;
    final List<ShapeResult> shapes = new ArrayList<>();
    final List<ShapeResult> sweep = new ArrayList<>();
    ScaleBench scale;
    /** Empty when the bench was told not to warm up. */
    List<WarmUp.Round> warmUp = List.of();
    /** The rounds after the baselines, before the shapes; empty when the bench was told not to warm up. */
    List<WarmUp.Round> warmUpAgain = List.of();
    KafkaRequests.Source kafkaRequestsSource = KafkaRequests.Source.BROKER;
    final List<SustainedRate.Result> rates = new ArrayList<>();

    Optional<ShapeResult> shape(String name) {
        return shapes.stream().filter(s -> s.name.equals(name)).findFirst();
    }

    /** The edges the latency targets speak of: the chain's (one edge at a time), else any shape's. */
    ShapeResult latencyShape() {
        return shape("chain").orElse(shapes.isEmpty() ? new ShapeResult("none", 0, 0) : shapes.getFirst());
    }

    double tasksPerS() {
        double min = Double.NaN;
        for (String s : List.of("wide", "runs")) {
            Optional<ShapeResult> r = shape(s);
            if (r.isPresent()) {
                min = Double.isNaN(min) ? r.get().tasksPerS() : Math.min(min, r.get().tasksPerS());
            }
        }
        return min;
    }

    /** The makespans of chains of this length: the chain shape's many runs if it has that length, else the sweep's. */
    Optional<ShapeResult> chainOf(int nodes) {
        return shape("chain").filter(s -> s.nodesPerRun == nodes)
                .or(() -> sweep.stream().filter(s -> s.nodesPerRun == nodes).findFirst());
    }

    ObjectNode json() {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        o.put("load_average_1m_before", round(loadBefore));
        o.put("load_average_1m_after", round(loadAfter));
        o.put("cpus", Runtime.getRuntime().availableProcessors());
        o.put("java", System.getProperty("java.version"));
        WarmUp.put(o.putArray("warmup"), warmUp);
        WarmUp.put(o.putArray("warmup_after_baselines"), warmUpAgain);
        ShapeResult lat = latencyShape();
        o.put("edge_shape", lat.name);
        lat.edge.put(o, "edge");
        lat.terminatedToReady.put(o, "terminated_to_ready");
        lat.readyToSubmitted.put(o, "ready_to_submitted");
        lat.submittedToStarted.put(o, "submitted_to_started");
        lat.startedToTerminated.put(o, "started_to_terminated");
        putSteps(o.putObject("edge_steps"), lat);
        o.put("tasks_per_s", round(tasksPerS()));
        o.put("kafka_requests_source", kafkaRequestsSource.wireName());
        for (ShapeResult s : shapes) {
            o.put(s.name + "_tasks_per_s", round(s.tasksPerS()));
            o.put(s.name + "_edge_p50_ms", round(s.edge.ms(50)));
            o.put(s.name + "_edge_p99_ms", round(s.edge.ms(99)));
            o.put(s.name + "_kafka_requests_per_task", round(s.kafkaPerTask()[4]));
        }
        chainOf(10).ifPresent(c -> {
            o.put("chain10_makespan_p50_ms", round(c.makespan.ms(50)));
            o.put("chain10_makespan_max_ms", round(c.makespan.maxMs()));
            o.put("chain10_requested_to_first_started_p50_ms", round(c.requestedToFirstStarted.ms(50)));
            o.put("chain10_last_terminated_to_settled_p50_ms", round(c.lastTerminatedToSettled.ms(50)));
            // how the makespan was timed, and what the run records' ms times make of it
            o.put("chain10_runs_timed_in_us", c.runsTimedInUs);
            o.put("chain10_makespan_of_run_records_p50_ms", round(c.makespanOfRecords.ms(50)));
            o.put("chain10_makespan_of_run_records_in_edge_p50s", round(c.makespanOfRecords.ms(50) / c.edge.ms(50)));
            ObjectNode parts = o.putObject("chain10_in_edge_p50s");
            ChainParts.of(c).forEach(parts::put);
        });
        if (baselines != null) {
            baselines.kafkaHop.put(o, "kafka_hop");
            baselines.kafkaTwoHop.put(o, "kafka_two_hop");
            baselines.kafkaTwoHopIdle.put(o, "kafka_two_hop_after_pause");
            o.put("kafka_records_per_s", round(baselines.kafkaRecordsPerS));
            baselines.redisRtt.put(o, "redis_rtt");
            baselines.redisScriptRtt.put(o, "redis_script_rtt");
            baselines.redisScriptRttIdle.put(o, "redis_script_rtt_after_pause");
            o.put("baseline_pause_ms", Baselines.IDLE_PAUSE.toMillis());
            o.put("redis_ops_per_s", round(baselines.redisOpsPerS));
            ObjectNode ratio = o.putObject("ratios");
            ratio.put("edge_p50_over_kafka_two_hop_p50", round(lat.edge.ms(50) / baselines.kafkaTwoHop.ms(50)));
            ratio.put("edge_p99_over_kafka_two_hop_p99", round(lat.edge.ms(99) / baselines.kafkaTwoHop.ms(99)));
            ratio.put("edge_p50_over_kafka_two_hop_after_pause_p50",
                    round(lat.edge.ms(50) / baselines.kafkaTwoHopIdle.ms(50)));
            ratio.put("terminated_to_ready_p50_over_kafka_hop_p50",
                    round(lat.terminatedToReady.ms(50) / baselines.kafkaHop.ms(50)));
            ratio.put("submitted_to_started_p50_over_kafka_hop_p50",
                    round(lat.submittedToStarted.ms(50) / baselines.kafkaHop.ms(50)));
            ratio.put("ready_to_submitted_p50_over_redis_script_rtt_p50",
                    round(lat.readyToSubmitted.ms(50) / baselines.redisScriptRtt.ms(50)));
            ratio.put("tasks_per_s_over_kafka_records_per_s", round(tasksPerS() / baselines.kafkaRecordsPerS));
            ratio.put("tasks_per_s_over_redis_ops_per_s", round(tasksPerS() / baselines.redisOpsPerS));
            if (floor != null) {
                ratio.put("floor_edge_p50_over_kafka_two_hop_p50", round(floor.edge.ms(50) / baselines.kafkaTwoHop.ms(50)));
                ratio.put("edge_p50_over_floor_edge_p50", round(lat.edge.ms(50) / floor.edge.ms(50)));
                // the shapes of many instances at once, as the floor's CPU figure is (one at a time, idle polls dominate)
                for (String name : List.of("wide", "runs")) {
                    shape(name).ifPresent(s -> ratio.put(name + "_cpu_per_task_over_floor",
                            round(s.cpuUsPerTask() / floor.cpuUsPerInstance())));
                }
            }
        }
        if (floor != null) {
            floor.put(o);
        }
        if (scale != null) {
            o.put("scale_active_runs", scale.runs);
            o.put("reconciler_pass_ms", round(scale.passWarmMs));
            o.put("reconciler_pass_cold_ms", round(scale.passColdMs));
            o.put("reconciler_round_trips_per_run", round(scale.passBorrowsPerRun));
            o.put("reconciler_commands_per_run", round(scale.passCommandsPerRun));
            o.put("reconciler_pass_allocated_kb_per_run", round(scale.passAllocatedMbPerRun * 1024));
            o.put("reconciler_pass_without_active_runs_ms", round(scale.passInactiveMs));
            o.put("reaper_pass_ms", round(scale.reaperPassMs));
            o.put("reaper_pass_redis_commands", round(scale.reaperCommandsPerPass));
            o.put("scale_create_s", round(scale.createS));
            o.put("heap_after_gc_before_runs_mb", round(scale.heapBeforeMb));
            o.put("scheduler_heap_mb", round(scale.heapWithRunsMb));
            o.put("heap_peak_during_pass_mb", round(scale.passPeakHeapMb));
        }
        ObjectNode targets = o.putObject("targets");
        // a run of the rate shape alone measures no edge apart from its own table
        if (baselines != null && lat.edge.count() > 0) {
            targets.put("edge_p50_le_2ms", lat.edge.ms(50) <= 2);
            targets.put("edge_p99_le_10ms", lat.edge.ms(99) <= 10);
            targets.put("edge_p50_le_3x_two_hop", lat.edge.ms(50) <= 3 * baselines.kafkaTwoHop.ms(50));
        }
        chainOf(10).ifPresent(c -> targets.put("chain10_le_50ms", c.makespan.ms(50) <= 50));
        chainOf(10).ifPresent(c -> targets.put("chain10_le_12x_edge_p50", c.makespan.ms(50) <= 12 * c.edge.ms(50)));
        shape("wide").ifPresent(s -> targets.put("wide_ge_5000_per_s", s.tasksPerS() >= 5000));
        shape("runs").ifPresent(s -> targets.put("runs_ge_5000_per_s", s.tasksPerS() >= 5000));
        if (scale != null) {
            targets.put("reconciler_pass_le_2s", scale.passWarmMs <= 2000);
            targets.put("scheduler_heap_le_512mb", scale.heapWithRunsMb <= 512 && scale.passPeakHeapMb <= 512);
        }
        rates.stream().filter(r -> r.targetPerS == 2000).findFirst()
                .ifPresent(r -> targets.put("sustained_2000_edge_p99_le_50ms", r.shape.edge.ms(99) <= 50));
        ObjectNode byShape = o.putObject("shapes");
        for (ShapeResult s : shapes) {
            byShape.set(s.name, shapeJson(s));
        }
        ArrayNode sweepJson = o.putArray("makespan_vs_nodes");
        for (ShapeResult s : sweep) {
            ObjectNode m = sweepJson.addObject();
            m.put("nodes", s.nodesPerRun);
            m.put("runs", s.runs);
            m.put("makespan_p50_ms", round(s.makespan.ms(50)));
            m.put("makespan_max_ms", round(s.makespan.maxMs()));
            m.put("edge_p50_ms", round(s.edge.ms(50)));
        }
        ArrayNode sustained = o.putArray("sustained");
        for (SustainedRate.Result r : rates) {
            ObjectNode m = sustained.addObject();
            m.put("target_tasks_per_s", r.targetPerS);
            m.put("seconds", r.seconds);
            m.put("requested_tasks_per_s", round(r.requestedPerS));
            m.put("achieved_tasks_per_s", round(r.achievedPerS()));
            m.put("runs", r.shape.runs);
            m.put("tasks", r.shape.tasks);
            m.put("span_s", round(r.shape.spanS));
            r.shape.edge.put(m, "edge");
            r.shape.makespan.put(m, "requested_to_settled");
            m.put("kafka_lag_max", r.lagMax);
            m.put("kafka_lag_at_feed_end", r.lagAtFeedEnd);
            m.put("kafka_lag_at_settled", r.lagAtSettled);
            m.put("kafka_lag_samples", r.lagSamples);
            ObjectNode byChannel = m.putObject("kafka_lag_max_by_channel");
            r.lagMaxByChannel.forEach(byChannel::put);
            m.set("shape", shapeJson(r.shape));
        }
        ObjectNode settings = o.putObject("client_settings");
        ObjectNode producer = settings.putObject("producer");
        producerConfig.forEach((k, v) -> producer.put(k, String.valueOf(v instanceof Class<?> c ? c.getName() : v)));
        ObjectNode consumer = settings.putObject("consumer");
        consumerConfig.forEach((k, v) -> consumer.put(k, String.valueOf(v instanceof Class<?> c ? c.getName() : v)));
        o.set("options", RecordCodec.JSON.valueToTree(options));
        return o;
    }

    private static ObjectNode shapeJson(ShapeResult s) {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        o.put("runs", s.runs);
        o.put("nodes_per_run", s.nodesPerRun);
        o.put("tasks", s.tasks);
        o.put("tasks_per_s", round(s.tasksPerS()));
        o.put("span_s", round(s.spanS));
        o.put("wall_s", round(s.wallS));
        s.edge.put(o, "edge");
        s.terminatedToReady.put(o, "terminated_to_ready");
        s.readyToSubmitted.put(o, "ready_to_submitted");
        s.submittedToStarted.put(o, "submitted_to_started");
        s.startedToTerminated.put(o, "started_to_terminated");
        s.makespan.put(o, "makespan");
        s.requestedToFirstStarted.put(o, "requested_to_first_started");
        s.lastTerminatedToSettled.put(o, "last_terminated_to_settled");
        putSteps(o.putObject("steps"), s);
        s.slowestEdges.ifPresent(tail -> tail.put(o.putObject("steps_tail")));
        ObjectNode cpu = o.putObject("cpu_ms");
        s.cpuMs.forEach((k, v) -> cpu.put(k, round(v)));
        cpu.put("redis_server", round(s.redisCpuMs));
        ObjectNode perTask = o.putObject("cpu_us_per_task");
        s.cpuMs.forEach((k, v) -> perTask.put(k, round(1000 * s.cpuMsPerTask(k))));
        perTask.put("redis_server", round(1000 * s.redisCpuMs / Math.max(1, s.tasks)));
        ObjectNode allocated = o.putObject("allocated_kb_per_task");
        s.allocatedKb.forEach((g, kb) -> allocated.put(g, round(kb / Math.max(1, s.tasks))));
        allocated.put("total", round(s.allocatedKbPerTask()));
        ObjectNode switches = o.putObject("context_switches_per_task");
        s.contextSwitches.forEach((g, n) -> switches.put(g, round(n / (double) Math.max(1, s.tasks))));
        o.put("jit_compile_ms", round(s.jitMs));
        o.put("jit_share_of_wall", round(s.jitShareOfWall()));
        o.put("redis_round_trips_per_task", round(s.redisBorrows / (double) Math.max(1, s.tasks)));
        o.put("redis_commands_per_task", round(s.redisCommands / (double) Math.max(1, s.tasks)));
        ObjectNode byCommand = o.putObject("redis_by_command_per_task");
        s.redisByCommand.byCommand().forEach((name, c) -> byCommand.putObject(name)
                .put("calls", round(c.calls() / (double) Math.max(1, s.tasks)))
                .put("server_us", round(c.usec() / (double) Math.max(1, s.tasks))));
        ObjectNode kafka = o.putObject("kafka_requests_per_task");
        double[] k = s.kafkaPerTask();
        kafka.put("produce", round(k[0]));
        kafka.put("fetch", round(k[1]));
        kafka.put("offset_commit", round(k[2]));
        kafka.put("other", round(k[3]));
        kafka.put("total", round(k[4]));
        o.put("kafka_produced_records_per_task", round(k[5]));
        o.put("kafka_records_per_produce_request", round(s.kafka.recordsPerProduce()));
        o.put("heap_after_gc_mb", round(s.heapAfterGcMb));
        return o;
    }

    void writeJson(Path file) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        Files.writeString(file, RecordCodec.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json()) + "\n");
    }

    String table() {
        StringBuilder t = new StringBuilder();
        t.append(String.format("%nSwale bench   load average %.2f before, %.2f after   %d cpus   Java %s%n", loadBefore,
                loadAfter, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
        if (!warmUp.isEmpty()) {
            t.append(WarmUp.line("Warm-up", warmUp));
        }
        if (!warmUpAgain.isEmpty()) {
            t.append(WarmUp.line("Warm-up after the baselines", warmUpAgain));
        }
        if (baselines != null) {
            Baselines b = baselines;
            t.append(String.format("%nBaselines (the application's client settings)%n"));
            t.append(String.format("  %-34s %s%n", "Kafka produce → consume, one hop", b.kafkaHop.line()));
            t.append(String.format("  %-34s %s%n", "Kafka two-hop ping-pong", b.kafkaTwoHop.line()));
            t.append(String.format("  %-34s %s%n", "  the same, each after a pause", b.kafkaTwoHopIdle.line()));
            t.append(String.format("  %-34s %,.0f records/s%n", "Kafka throughput", b.kafkaRecordsPerS));
            t.append(String.format("  %-34s %s%n", "Redis GET round trip", b.redisRtt.line()));
            t.append(String.format("  %-34s %s%n", "Redis EVALSHA round trip", b.redisScriptRtt.line()));
            t.append(String.format("  %-34s %s%n", "  the same, each after a pause", b.redisScriptRttIdle.line()));
            t.append(String.format("  (the pause: %d ms, about the time between an edge's steps)%n", Baselines.IDLE_PAUSE.toMillis()));
            t.append(String.format("  %-34s %,.0f ops/s%n", "Redis GET, 8 connections", b.redisOpsPerS));
        }
        if (floor != null) {
            t.append(floor.table());
        }
        t.append(String.format("%nShapes (noop)        runs nodes   tasks    tasks/s  edge p50   p95     p99     max  ms"
                + "   RT/task  cmd/task  Kreq/task  CPU µs/task sched / worker / kafka clients / broker+other / GC+JIT / redis"
                + "   JIT %% of wall  alloc KB/task%n"));
        List<ShapeResult> all = new ArrayList<>(shapes);
        rates.forEach(r -> all.add(r.shape));
        for (ShapeResult s : all) {
            t.append(String.format("  %-18s %5d %5d %7d %10.0f  %7.3f %7.3f %7.3f %7.3f   %7.2f  %8.2f  %9.2f  %6.0f / %6.0f / %6.0f / %6.0f / %6.0f / %6.0f   %5.0f   %12.1f%n",
                    s.name, s.runs, s.nodesPerRun, s.tasks, s.tasksPerS(), s.edge.ms(50), s.edge.ms(95), s.edge.ms(99),
                    s.edge.maxMs(), s.redisBorrows / (double) Math.max(1, s.tasks),
                    s.redisCommands / (double) Math.max(1, s.tasks), s.kafkaPerTask()[4], 1000 * s.cpuMsPerTask("scheduler"),
                    1000 * s.cpuMsPerTask("worker"), 1000 * s.cpuMsPerTask("kafka_clients"),
                    1000 * s.cpuMsPerTask("broker_and_other"), 1000 * s.cpuMsPerTask("jvm_internal"),
                    1000 * s.redisCpuMs / Math.max(1, s.tasks), 100 * s.jitShareOfWall(), s.allocatedKbPerTask()));
        }
        t.append(String.format("%nKafka per task instance (%s)  produce  fetch  commit  other  total   records  records/produce%n",
                kafkaRequestsSource == KafkaRequests.Source.BROKER ? "the broker's request metrics"
                        : "the application's clients' metrics"));
        for (ShapeResult s : all) {
            double[] k = s.kafkaPerTask();
            t.append(String.format("  %-18s %24.2f %6.2f %7.2f %6.2f %6.2f %9.2f %16.2f%n", s.name, k[0], k[1], k[2], k[3], k[4],
                    k[5], s.kafka.recordsPerProduce()));
        }
        t.append(String.format("%nContext switches per task instance (/proc: voluntary and involuntary)%n"));
        for (ShapeResult s : all) {
            t.append(String.format("  %-18s %s%n", s.name, ContextSwitches.line(s.contextSwitches, s.tasks)));
        }
        t.append(String.format("%nRedis per task instance by command (calls, µs in the server; a script's commands also"
                + " under their own names)%n"));
        for (ShapeResult s : all) {
            t.append(String.format("  %-18s %s%n", s.name, s.redisByCommand.perTask(s.tasks, 10)));
        }
        if (!rates.isEmpty()) {
            t.append(String.format("%nSustained rate (2-node chains requested at a steady pace)%n"
                    + "  target/s  requested/s  achieved/s   edge p50    p99  ms   requested→settled p50    p99  ms"
                    + "   Kafka lag max  at feed end  settled%n"));
            for (SustainedRate.Result r : rates) {
                t.append(String.format("  %8d %12.0f %11.0f  %9.3f %7.3f  %22.1f %7.1f  %14d %12d %8d%n", r.targetPerS,
                        r.requestedPerS, r.achievedPerS(), r.shape.edge.ms(50), r.shape.edge.ms(99),
                        r.shape.makespan.ms(50), r.shape.makespan.ms(99), r.lagMax, r.lagAtFeedEnd, r.lagAtSettled));
            }
            for (SustainedRate.Result r : rates) {
                r.shape.slowestEdges.ifPresent(tail -> t.append(String.format("  %d/s, step by step (JFR):%n",
                        r.targetPerS)).append(tail.lines("    ")));
            }
        }
        ShapeResult lat = latencyShape();
        if (lat.edge.count() > 0) {
            t.append(String.format("%nOne edge of the %s, by leg%n", lat.name));
            t.append(String.format("  %-34s %s%n", "upstream terminated → started", lat.edge.line()));
            t.append(String.format("  %-34s %s%n", "  terminated → found ready", lat.terminatedToReady.line()));
            t.append(String.format("  %-34s %s%n", "  ready → submitted", lat.readyToSubmitted.line()));
            t.append(String.format("  %-34s %s%n", "  submitted → started", lat.submittedToStarted.line()));
            t.append(String.format("  %-34s %s%n", "started → terminated (noop)", lat.startedToTerminated.line()));
            if (lat.steps.get("finished_to_claimed").count() > 0) {
                t.append(String.format("The same edges step by step (JFR event io.swale.TaskStep, one clock)%n"));
                lat.steps.forEach((k, d) -> {
                    if (d.count() > 0) {
                        t.append(String.format("  %-52s p50 %7.3f  p95 %7.3f  mean %7.3f ms  (n=%d)%n",
                                StepTrace.label(k), d.ms(50), d.ms(95), d.meanMs(), d.count()));
                    }
                });
            }
            for (ShapeResult s : shapes) {
                if (s != lat) {
                    t.append(String.format("  %-9s ready → submitted %s%n", s.name, s.readyToSubmitted.line()));
                    t.append(String.format("  %-9s submitted → started %s%n", s.name, s.submittedToStarted.line()));
                }
            }
            if (baselines != null) {
                t.append(String.format("%nRatios to the baselines%n"));
                t.append(String.format("  edge p50 / two-hop p50             %6.2f×%n", lat.edge.ms(50) / baselines.kafkaTwoHop.ms(50)));
                t.append(String.format("  edge p99 / two-hop p99             %6.2f×%n", lat.edge.ms(99) / baselines.kafkaTwoHop.ms(99)));
                t.append(String.format("  edge p50 / two-hop after pause p50 %6.2f×%n", lat.edge.ms(50) / baselines.kafkaTwoHopIdle.ms(50)));
                t.append(String.format("  terminated → ready p50 / hop p50   %6.2f×%n", lat.terminatedToReady.ms(50) / baselines.kafkaHop.ms(50)));
                t.append(String.format("  submitted → started p50 / hop p50  %6.2f×%n", lat.submittedToStarted.ms(50) / baselines.kafkaHop.ms(50)));
                t.append(String.format("  ready → submitted p50 / EVALSHA p50 %5.2f×%n", lat.readyToSubmitted.ms(50) / baselines.redisScriptRtt.ms(50)));
                t.append(String.format("  tasks/s / Kafka records/s          %6.3f%n", tasksPerS() / baselines.kafkaRecordsPerS));
                t.append(String.format("  tasks/s / Redis ops/s              %6.3f%n", tasksPerS() / baselines.redisOpsPerS));
                if (floor != null) {
                    t.append(String.format("  floor edge p50 / two-hop p50       %6.2f×%n", floor.edge.ms(50) / baselines.kafkaTwoHop.ms(50)));
                    t.append(String.format("  edge p50 / floor edge p50          %6.2f×%n", lat.edge.ms(50) / floor.edge.ms(50)));
                    for (String name : List.of("wide", "runs")) {
                        shape(name).ifPresent(s -> t.append(String.format("  %-9s CPU per task / floor's      %6.2f×%n",
                                name, s.cpuUsPerTask() / floor.cpuUsPerInstance())));
                    }
                }
            }
        }
        t.append(String.format("%n  RT/task: Redis connections taken per task instance (one round trip each, a pipeline once);%n"
                + "  cmd/task: commands Redis processed per task instance, those inside the scripts included;%n"
                + "  Kreq/task: Kafka requests per task instance, the bench's own left out.%n"));
        t.append(String.format("  CPU: this process's threads by role (the embedded broker is in broker+other) and redis-server.%n"));
        if (!sweep.isEmpty()) {
            t.append(String.format("%nChain makespan (run requested → settled; µs from the bench's start call to the settle's"
                    + " report, each run alone) by node count%n"));
            for (ShapeResult s : sweep) {
                t.append(String.format("  %3d nodes  p50 %7.1f ms  max %7.1f ms  (%d runs)   edge p50 %.3f, mean %.3f ms   requested"
                        + " → first started p50 %.3f ms, last terminated → settled p50 %.3f ms%n", s.nodesPerRun,
                        s.makespan.ms(50), s.makespan.maxMs(), s.runs, s.edge.ms(50), s.edge.meanMs(),
                        s.requestedToFirstStarted.ms(50), s.lastTerminatedToSettled.ms(50)));
            }
        }
        chainOf(10).filter(c -> c.edge.count() > 0).ifPresent(c -> t.append(String.format("%n")).append(ChainParts.line(c)));
        if (scale != null) {
            ScaleBench s = scale;
            t.append(String.format("%nReconciler over %,d active runs (created in %.1f s)%n", s.runs, s.createS));
            t.append(String.format("  pass %.0f ms (first %.0f ms), %.2f round trips and %.2f commands per run, %.1f KB allocated per run%n",
                    s.passWarmMs, s.passColdMs, s.passBorrowsPerRun, s.passCommandsPerRun, s.passAllocatedMbPerRun * 1024));
            t.append(String.format("  heap after GC %.0f MB without them, %.0f MB with them; peak during a pass ≤ %.0f MB%n",
                    s.heapBeforeMb, s.heapWithRunsMb, s.passPeakHeapMb));
            t.append(String.format("  the lease reaper over them (no lease ended): pass %.2f ms, %.0f Redis commands%n",
                    s.reaperPassMs, s.reaperCommandsPerPass));
            t.append(String.format("  the same runs out of the active index: pass %.1f ms%n", s.passInactiveMs));
        }
        t.append(String.format("%nTargets%n"));
        json().get("targets").properties().forEach(e -> t.append(String.format("  %-28s %s%n", e.getKey(),
                e.getValue().asBoolean() ? "met" : "MISSED")));
        return t.toString();
    }

    /** Each recorded leg of {@code s}: p50, p95, mean, count. */
    private static void putSteps(ObjectNode into, ShapeResult s) {
        s.steps.forEach((k, d) -> {
            if (d.count() > 0) {
                ObjectNode leg = into.putObject(k);
                leg.put("p50_ms", round(d.ms(50)));
                leg.put("p95_ms", round(d.ms(95)));
                leg.put("mean_ms", round(d.meanMs()));
                leg.put("count", d.count());
            }
        });
    }

    static double round(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return -1;
        }
        return Math.round(v * 1000) / 1000.0;
    }
}
