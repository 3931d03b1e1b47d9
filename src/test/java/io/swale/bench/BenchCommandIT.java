package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.swale.record.RecordCodec;
import io.swale.store.redis.TestRedisCluster;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import redis.embedded.RedisServer;
import tools.jackson.databind.JsonNode;

/**
 * A bench with tiny sizes, so the command cannot rot: any numbers, every field. The bench runs in this JVM (its
 * sources compile with the tests); one more test starts it the documented way, {@code bin/swale bench}, from the
 * packaged service jar and target/bench.
 */
class BenchCommandIT {

    @Test
    void tinyBenchWritesEveryFigureAndTheChart(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("bench.json");
        Path chart = dir.resolve("bench.png");

        // one warm-up round, whatever the JIT does: a share of 1,000 times the wall is always quiet
        int exit = BenchCommand.run("--warmup-rounds", "3", "--jit-quiet", "100000", "--chain", "3", "--chain-repeat",
                "2", "--chain-sizes", "1,3",
                "--sweep-repeat", "1", "--fanout", "3", "--fanout-repeat", "1", "--wide", "5", "--runs", "3",
                "--samples", "20", "--kafka-records", "200", "--floor-instances", "200", "--floor-in-flight", "10",
                "--scale-runs", "20", "--rates", "300",
                "--rate-seconds", "1", "--rate-steps", "--json", json.toString(), "--chart", chart.toString());

        assertThat(exit).isZero();
        JsonNode o = RecordCodec.JSON.readTree(Files.readString(json));
        for (String field : new String[] {"edge_p50_ms", "edge_p95_ms", "edge_p99_ms", "edge_max_ms", "tasks_per_s",
                "ready_to_submitted_p50_ms", "submitted_to_started_p50_ms", "terminated_to_ready_p50_ms",
                "kafka_hop_p50_ms", "kafka_two_hop_p50_ms", "kafka_two_hop_p99_ms", "kafka_records_per_s",
                "redis_rtt_p50_ms", "redis_ops_per_s", "chain_tasks_per_s", "wide_tasks_per_s", "runs_tasks_per_s",
                "reconciler_pass_ms", "reconciler_round_trips_per_run", "reaper_pass_ms", "reaper_pass_redis_commands",
                "scheduler_heap_mb", "load_average_1m_before"}) {
            assertThat(o.has(field)).as(field).isTrue();
            assertThat(o.get(field).isNumber()).as(field).isTrue();
        }
        assertThat(o.get("edge_count").asLong()).isEqualTo(2 * 2);
        assertThat(o.get("warmup").size()).isEqualTo(1);
        assertThat(o.get("warmup").get(0).get("seconds").asDouble()).isPositive();
        assertThat(o.get("warmup").get(0).get("jit_compile_ms").asLong()).isNotNegative();
        assertThat(o.get("warmup_after_baselines").size()).isEqualTo(1);
        assertThat(o.get("warmup_after_baselines").get(0).get("seconds").asDouble()).isPositive();
        for (String field : new String[] {"kafka_two_hop_after_pause_p50_ms", "redis_script_rtt_after_pause_p50_ms"}) {
            assertThat(o.get(field).asDouble()).as(field).isPositive();
        }
        // each edge of the chain, step by step: the legs follow one another, so together they are the edge
        JsonNode steps = o.get("edge_steps");
        List<String> legs = List.of("event_hop", "run_read", "readiness", "submit_script", "dispatch_hop",
                "slot_and_admission", "claim_script");
        double legsMean = 0;
        for (String leg : legs) {
            assertThat(steps.get(leg).get("count").asLong()).as(leg).isEqualTo(2 * 2);
            legsMean += steps.get(leg).get("mean_ms").asDouble();
        }
        double edgeMean = steps.get("finished_to_claimed").get("mean_ms").asDouble();
        assertThat(edgeMean).isPositive();
        assertThat(legsMean).isCloseTo(edgeMean, org.assertj.core.data.Offset.offset(0.02 + 0.02 * edgeMean));
        for (String leg : List.of("hand_off", "operator", "finish_script")) {
            assertThat(steps.get(leg).get("count").asLong()).as(leg).isEqualTo(2 * 3);
        }
        // the design floor: each instance of its loop, one at a time, gives one edge; many at once, all of them count
        JsonNode floor = o.get("design_floor");
        assertThat(floor.get("edge_count").asLong()).isEqualTo(20);
        assertThat(floor.get("edge_p50_ms").asDouble()).isPositive();
        assertThat(floor.get("instances").asLong()).isEqualTo(200);
        assertThat(floor.get("in_flight").asInt()).isEqualTo(10);
        assertThat(floor.get("instances_per_s").asDouble()).isPositive();
        assertThat(floor.get("cpu_us_per_instance").get("total").asDouble())
                .isGreaterThanOrEqualTo(floor.get("cpu_us_per_instance").get("process").asDouble()).isPositive();
        // each instance produced a dispatch and an event, and each was fetched
        assertThat(floor.get("kafka_requests_per_instance").get("produce").asDouble()).isPositive();
        assertThat(floor.get("kafka_requests_per_instance").get("fetch").asDouble()).isPositive();
        if (Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
            assertThat(floor.get("context_switches_per_instance").get("redis_server").asDouble()).isPositive();
        }
        assertThat(o.get("ratios").get("edge_p50_over_floor_edge_p50").asDouble()).isPositive();
        assertThat(o.get("ratios").get("runs_cpu_per_task_over_floor").asDouble()).isPositive();
        // the pool it measured had the bench's slots, as the service bound them
        assertThat(o.get("options").get("default_slots").asInt()).isEqualTo(BenchCommand.DEFAULT_SLOTS);
        assertThat(o.get("shapes").get("wide").get("tasks").asLong()).isEqualTo(5);
        assertThat(o.get("shapes").get("runs").get("tasks").asLong()).isEqualTo(30);
        // the service's threads hand each instance on (listener, slot, producer): every hand-off is a switch
        JsonNode switches = o.get("shapes").get("runs").get("context_switches_per_task");
        if (Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
            assertThat(switches.get("scheduler").asDouble()).isPositive();
            assertThat(switches.get("worker").asDouble()).isPositive();
            assertThat(switches.get("redis_server").asDouble()).isPositive();
            assertThat(switches.get("total").asDouble()).isGreaterThanOrEqualTo(switches.get("involuntary").asDouble());
        }
        assertThat(o.get("shapes").get("fanout").get("tasks").asLong()).isEqualTo(5);
        assertThat(o.get("ratios").get("edge_p50_over_kafka_two_hop_p50").isNumber()).isTrue();
        assertThat(o.get("makespan_vs_nodes").size()).isEqualTo(2);
        // each chain run's start (requested → first started) and end (last terminated → settled), once a run
        JsonNode chainShape = o.get("shapes").get("chain");
        assertThat(chainShape.get("requested_to_first_started_count").asLong()).isEqualTo(2);
        assertThat(chainShape.get("requested_to_first_started_p50_ms").asDouble()).isPositive();
        assertThat(chainShape.get("last_terminated_to_settled_count").asLong()).isEqualTo(2);
        assertThat(chainShape.get("edge_mean_ms").asDouble()).isPositive();
        assertThat(o.get("scale_active_runs").asInt()).isEqualTo(20);
        assertThat(o.get("targets").has("edge_p50_le_2ms")).isTrue();
        assertThat(Files.size(chart)).isPositive();

        // local mode: the embedded KRaft broker's request meters are in this JVM, and every task instance
        // costs Kafka requests: its dispatch and its event are produced and fetched
        assertThat(o.get("kafka_requests_source").asString()).isEqualTo("broker");
        JsonNode runs = o.get("shapes").get("runs");
        JsonNode requests = runs.get("kafka_requests_per_task");
        for (String kind : new String[] {"produce", "fetch", "total"}) {
            assertThat(requests.get(kind).asDouble()).as(kind).isPositive();
        }
        assertThat(requests.get("offset_commit").asDouble()).isGreaterThanOrEqualTo(0);
        // each figure is rounded to three decimals on its own, so the sum may pass the total by 0.0015
        assertThat(requests.get("total").asDouble()).isGreaterThanOrEqualTo(
                requests.get("produce").asDouble() + requests.get("fetch").asDouble() - 0.002);
        assertThat(runs.get("kafka_produced_records_per_task").asDouble()).isGreaterThanOrEqualTo(1);
        // the JVM's own threads (GC, JIT) are counted beside its Java threads, and what the JIT took
        assertThat(runs.get("cpu_us_per_task").get("jvm_internal").asDouble()).isNotNegative();
        assertThat(runs.get("cpu_us_per_task").get("scheduler").asDouble()).isPositive();
        assertThat(runs.get("jit_compile_ms").asDouble()).isNotNegative();
        // the heap each role allocated per task instance: the scheduler's events threads do allocate
        JsonNode allocated = runs.get("allocated_kb_per_task");
        assertThat(allocated.get("scheduler").asDouble()).isPositive();
        assertThat(allocated.get("total").asDouble()).isGreaterThanOrEqualTo(allocated.get("scheduler").asDouble());
        assertThat(runs.get("jit_share_of_wall").isNumber()).isTrue();
        assertThat(runs.get("kafka_records_per_produce_request").asDouble()).isPositive();
        assertThat(o.get("runs_kafka_requests_per_task").asDouble()).isPositive();
        // every task instance is claimed and finished by a script, and their commands count under their own names
        JsonNode byCommand = runs.get("redis_by_command_per_task");
        assertThat(byCommand.get("evalsha").get("calls").asDouble()).isGreaterThanOrEqualTo(2);
        assertThat(byCommand.get("hset").get("calls").asDouble()).isGreaterThanOrEqualTo(2);
        assertThat(byCommand.has("info")).isFalse();

        // the sustained-rate shape: 1 s at 300 task instances/s of 2-node chains, so 150 runs and 150 edges
        JsonNode sustained = o.get("sustained");
        assertThat(sustained.size()).isEqualTo(1);
        for (JsonNode r : sustained) {
            assertThat(r.get("target_tasks_per_s").asInt()).isEqualTo(300);
            assertThat(r.get("tasks").asLong()).isEqualTo(300);
            assertThat(r.get("edge_count").asLong()).isEqualTo(150);
            assertThat(r.get("achieved_tasks_per_s").asDouble()).isPositive();
            assertThat(r.get("requested_tasks_per_s").asDouble()).isPositive();
            assertThat(r.get("edge_p99_ms").asDouble()).isGreaterThanOrEqualTo(r.get("edge_p50_ms").asDouble());
            assertThat(r.get("requested_to_settled_count").asLong()).isEqualTo(150);
            assertThat(r.get("kafka_lag_samples").asInt()).isPositive();
            assertThat(r.get("kafka_lag_max").asLong()).isGreaterThanOrEqualTo(r.get("kafka_lag_at_feed_end").asLong());
            assertThat(r.get("kafka_lag_max_by_channel").size()).isPositive();
            assertThat(r.get("shape").get("kafka_requests_per_task").get("total").asDouble()).isPositive();
            // --rate-steps: every edge traced, and the slowest of them split into the legs that add up to them
            JsonNode tail = r.get("shape").get("steps_tail");
            assertThat(tail.get("edges").asLong()).isEqualTo(150);
            assertThat(tail.get("tail_edges").asLong()).isBetween(1L, 150L);
            double tailLegs = 0;
            for (JsonNode leg : tail.get("tail_leg_mean_ms")) {
                tailLegs += leg.asDouble();
            }
            assertThat(tail.get("tail_leg_mean_ms").size()).isEqualTo(7);
            assertThat(tailLegs).isGreaterThanOrEqualTo(tail.get("threshold_ms").asDouble() - 0.01);
            assertThat(tail.get("tail_edge_starts_s").size()).isEqualTo(tail.get("tail_edges").asInt());
            assertThat(tail.get("busiest_half_second_tail_edges").asInt()).isBetween(1, tail.get("tail_edges").asInt());
        }
    }

    @Test
    void benchRunsAgainstGivenKafkaAndRedisAddresses(@TempDir Path dir) throws Exception {
        EmbeddedKafkaKraftBroker kafka = new EmbeddedKafkaKraftBroker(1, 1);
        kafka.brokerProperties(Map.of("group.initial.rebalance.delay.ms", "0"));
        kafka.brokerListProperty("bench.it.kafka.brokers");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RedisServer redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
        kafka.afterPropertiesSet();
        redis.start();
        try {
            Path json = dir.resolve("bench.json");
            int exit = BenchCommand.run("--no-warmup", "--shapes", "chain", "--chain", "2", "--chain-repeat", "1",
                    "--chain-sizes", "1", "--sweep-repeat", "1", "--samples", "10", "--kafka-records", "50",
                    "--floor-instances", "50", "--floor-in-flight", "5",
                    "--scale-runs", "0", "--kafka", kafka.getBrokersAsString(), "--redis", "127.0.0.1:" + port,
                    "--kafka-requests", "clients", "--json", json.toString());

            assertThat(exit).isZero();
            JsonNode o = RecordCodec.JSON.readTree(Files.readString(json));
            assertThat(o.get("shapes").get("chain").get("tasks").asLong()).isEqualTo(2);
            assertThat(o.get("kafka_hop_p50_ms").isNumber()).isTrue();
            // the broker is in this JVM too, so the clients' own metrics are asked for: the fallback used when
            // the broker runs elsewhere
            assertThat(o.get("kafka_requests_source").asString()).isEqualTo("clients");
            JsonNode chain = o.get("shapes").get("chain");
            assertThat(chain.get("kafka_requests_per_task").get("produce").asDouble()).isPositive();
            assertThat(chain.get("kafka_requests_per_task").get("fetch").asDouble()).isPositive();
            assertThat(chain.get("kafka_produced_records_per_task").asDouble()).isGreaterThanOrEqualTo(1);
            // the floor's own clients count themselves, read before they close
            assertThat(o.get("design_floor").get("kafka_requests_per_instance").get("produce").asDouble()).isPositive();
        } finally {
            redis.stop();
            kafka.destroy();
        }
    }

    @Test
    void benchRunsOnARedisCluster(@TempDir Path dir) throws Exception {
        EmbeddedKafkaKraftBroker kafka = new EmbeddedKafkaKraftBroker(1, 1);
        kafka.brokerProperties(Map.of("group.initial.rebalance.delay.ms", "0"));
        // not the default system property: later test classes in this JVM would take it for a Kafka address
        kafka.brokerListProperty("bench.it.kafka.brokers");
        kafka.afterPropertiesSet();
        try (TestRedisCluster cluster = TestRedisCluster.start()) {
            Path json = dir.resolve("bench.json");
            String nodes = cluster.nodes().stream().map(n -> n.getHost() + ":" + n.getPort())
                    .collect(java.util.stream.Collectors.joining(","));
            int exit = BenchCommand.run("--no-warmup", "--shapes", "runs", "--runs", "6", "--samples", "10",
                    "--kafka-records", "50", "--floor-instances", "50", "--floor-in-flight", "5", "--scale-runs", "20",
                    "--kafka", kafka.getBrokersAsString(),
                    "-p", "spring.data.redis.cluster.nodes=" + nodes, "--json", json.toString());

            assertThat(exit).isZero();
            JsonNode o = RecordCodec.JSON.readTree(Files.readString(json));
            assertThat(o.get("shapes").get("runs").get("tasks").asLong()).isEqualTo(60);
            // summed over the three nodes: the commands of 60 task instances cannot be fewer than 60
            assertThat(o.get("shapes").get("runs").get("redis_commands_per_task").asDouble()).isGreaterThan(1);
            assertThat(o.get("shapes").get("runs").get("redis_by_command_per_task").get("evalsha").get("calls")
                    .asDouble()).isGreaterThanOrEqualTo(2);
            assertThat(o.get("scale_active_runs").asInt()).isEqualTo(20);
            // the floor's keys share one hash slot, so its pipelines and scripts work on a Cluster too
            assertThat(o.get("design_floor").get("instances").asLong()).isEqualTo(50);
        } finally {
            kafka.destroy();
        }
    }

    @Test
    void aFloorWithNothingInFlightIsRefusedAsBadInput() {
        assertThat(BenchCommand.run("--floor-in-flight", "0")).isEqualTo(2);
    }

    @Test
    void aWarmUpOfNoRoundsOrANonPositiveQuietShareIsRefusedAsBadInput() {
        assertThat(BenchCommand.run("--warmup-rounds", "0")).isEqualTo(2);
        assertThat(BenchCommand.run("--jit-quiet", "0")).isEqualTo(2);
        assertThat(BenchCommand.run("--jit-quiet", "NaN")).isEqualTo(2);
    }

    @Test
    void binSwaleBenchLaunchesTheBenchNextToTheServiceJar() throws Exception {
        String jar = System.getProperty("swale.it.app.jar");
        Path bench = Path.of("target", "bench");
        assumeTrue(jar != null && Files.isRegularFile(Path.of(jar)) && Files.isDirectory(bench),
                "the jars are packaged before failsafe runs; run through ./mvnw verify");
        try (var lib = Files.list(bench.resolve("lib"))) {
            assertThat(lib.map(f -> f.getFileName().toString())).anyMatch(n -> n.startsWith("xchart-"));
        }
        ProcessBuilder pb = new ProcessBuilder("sh", "bin/swale", "bench", "--help").redirectErrorStream(true);
        pb.environment().put("SWALE_JAR", jar);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("Usage: bench").contains("--chart=<chart>");
    }
}
