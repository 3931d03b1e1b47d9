package io.swale.bench;

import static org.awaitility.Awaitility.await;

import io.swale.record.RecordCodec;
import io.swale.store.redis.TestRedisCluster;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import redis.clients.jedis.Jedis;
import redis.embedded.RedisServer;
import tools.jackson.databind.JsonNode;

/**
 * A paired bench of Redis topologies (issue 15): the same bench, in this JVM, on one Kafka broker, against a
 * standalone redis-server ({@code standalone}), a 3-primary Redis Cluster ({@code cluster}) and a primary with
 * one replica under {@code swale.redis.durability=wait} ({@code wait}), interleaved round by round (A B C A B C)
 * so that the load of a shared machine falls on all of them alike. Not a test: a launcher, run with the test
 * class path (docs in the i15-replicas note):
 *
 * <pre>java -cp target/test-classes:target/classes:$(cat target/test.cp) io.swale.bench.TopologyBench
 *     &lt;out-dir&gt; &lt;rounds&gt; &lt;standalone,cluster,wait&gt; [bench options…]</pre>
 *
 * Each Redis is fresh for each run (the redis-server that embedded-redis ships, no persistence). One line per
 * run, {@code TOPOLOGY …}, gives the runs shape's task instances/s and edge p50/p99, the chain's edge p50/p99
 * when it ran, and the load averages before and after.
 */
public final class TopologyBench {
    private TopologyBench() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<String> topologies = List.of(args[2].split(","));
        List<String> benchArgs = List.of(args).subList(3, args.length);
        Files.createDirectories(out);
        EmbeddedKafkaKraftBroker kafka = new EmbeddedKafkaKraftBroker(1, 1);
        kafka.brokerProperties(Map.of("group.initial.rebalance.delay.ms", "0"));
        kafka.afterPropertiesSet();
        List<String> lines = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                for (String topology : topologies) {
                    String line = runOnce(out, round, topology, kafka.getBrokersAsString(), benchArgs);
                    lines.add(line);
                    System.out.println(line);
                }
            }
        } finally {
            kafka.destroy();
        }
        System.out.println("TOPOLOGY summary");
        lines.forEach(System.out::println);
        System.exit(0);
    }

    private static String runOnce(Path out, int round, String topology, String kafka, List<String> benchArgs)
            throws Exception {
        Path json = out.resolve(topology + "-" + round + ".json");
        String loadBefore = loadAverages();
        String started = Instant.now().toString();
        List<String> args = new ArrayList<>(benchArgs);
        args.addAll(List.of("--kafka", kafka, "--json", json.toString()));
        int exit;
        switch (topology) {
            case "standalone" -> {
                int port = freePort();
                RedisServer redis = server(port, List.of());
                try {
                    args.addAll(List.of("--redis", "127.0.0.1:" + port));
                    exit = BenchCommand.run(args.toArray(String[]::new));
                } finally {
                    redis.stop();
                }
            }
            case "cluster" -> {
                try (TestRedisCluster cluster = TestRedisCluster.start()) {
                    args.addAll(List.of("-p", "spring.data.redis.cluster.nodes=" + cluster.nodes().stream()
                            .map(n -> n.getHost() + ":" + n.getPort()).collect(Collectors.joining(","))));
                    exit = BenchCommand.run(args.toArray(String[]::new));
                }
            }
            case "wait" -> {
                int primaryPort = freePort();
                RedisServer primary = server(primaryPort, List.of());
                RedisServer replica = server(freePort(), List.of("replicaof 127.0.0.1 " + primaryPort));
                try {
                    await("replica in sync").atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                        try (Jedis j = new Jedis("127.0.0.1", primaryPort)) {
                            return j.info("replication").contains("connected_slaves:1")
                                    && j.info("replication").contains("state=online");
                        }
                    });
                    args.addAll(List.of("--redis", "127.0.0.1:" + primaryPort, "-p", "swale.redis.durability=wait",
                            "-p", "swale.redis.wait-replicas=1"));
                    exit = BenchCommand.run(args.toArray(String[]::new));
                } finally {
                    replica.stop();
                    primary.stop();
                }
            }
            default -> throw new IllegalArgumentException("unknown topology `" + topology
                    + "`: standalone, cluster or wait");
        }
        String loadAfter = loadAverages();
        if (exit != 0 || !Files.exists(json)) {
            return String.format("TOPOLOGY round=%d %-10s FAILED exit=%d started=%s load(before)=%s", round, topology,
                    exit, started, loadBefore);
        }
        JsonNode o = RecordCodec.JSON.readTree(Files.readString(json));
        JsonNode runs = o.path("shapes").path("runs");
        JsonNode chain = o.path("shapes").path("chain");
        return String.format("TOPOLOGY round=%d %-10s started=%s runs: %s tasks/s edge p50 %s p99 %s ms,"
                + " cmd/task %s RT/task %s; chain: edge p50 %s p99 %s ms; redis EVALSHA rtt p50 %s ms;"
                + " load(1/5/15) before %s after %s", round, topology, started, runs.path("tasks_per_s"),
                runs.path("edge_p50_ms"), runs.path("edge_p99_ms"), runs.path("redis_commands_per_task"),
                runs.path("redis_round_trips_per_task"), chain.path("edge_p50_ms"), chain.path("edge_p99_ms"),
                o.path("redis_script_rtt_p50_ms"), loadBefore, loadAfter);
    }

    private static RedisServer server(int port, List<String> settings) throws IOException {
        var b = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                .setting("appendonly no");
        settings.forEach(b::setting);
        RedisServer s = b.build();
        s.start();
        return s;
    }

    private static String loadAverages() throws IOException {
        String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
        return f[0] + "/" + f[1] + "/" + f[2];
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
