package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.JsonNode;

/**
 * Many replicas (issue 15 item 5): three scheduler+api JVMs and three pool-worker JVMs of the built jar on one
 * Kafka broker process and one 3-primary Redis Cluster (the members get only its node list), 500 graph runs of
 * a → b started through all three APIs. Every run completes and is settled exactly once (the replicas'
 * {@code swale.runs.settled} add up to 500), no two attempts of one task instance overlap (the tasks log their
 * start and end), every replica did part of the work and every Cluster primary holds part of the data; the
 * split is printed. Runs in the `multiprocess` profile.
 */
class ReplicasProcessIT {
    static final int RUNS = 500;
    static final List<String> SCHEDULERS = List.of("s1", "s2", "s3");
    static final List<String> WORKERS = List.of("w1", "w2", "w3");
    /** Six partitions per topic: two per replica of each group. */
    static final List<String> MEMBER_SETTINGS = List.of("--swale.kafka.partitions=6");

    final Path dir = Path.of("target", "replicas").toAbsolutePath();
    final Path attemptsFile = dir.resolve("attempts.log");
    final HttpClient http = HttpClient.newHttpClient();
    ChaosCluster cluster;

    @BeforeAll
    static void quietClients() {
        ChaosCluster.quietTestLogs();
    }

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void threeSchedulersAndThreeWorkersShareFiveHundredRuns() throws Exception {
        String jar = ChaosCluster.builtJar();
        cluster = new ChaosCluster(dir, jar, MEMBER_SETTINGS, SCHEDULERS, WORKERS, ChaosCluster.RedisKind.CLUSTER);
        long t0 = System.nanoTime();
        cluster.startAll();
        long startedMs = (System.nanoTime() - t0) / 1_000_000;

        List<SwaleClient> apis = SCHEDULERS.stream().map(s -> new SwaleClient(cluster.apiPorts.get(s))).toList();
        String g = IntegrationTest.unique("replicas");
        assertThat(apis.get(0).publish(definition(g)).status()).isLessThan(300);
        List<String> partitions = IntStream.range(0, RUNS).mapToObj(i -> String.format("p%04d", i)).toList();
        long t1 = System.nanoTime();
        // 50 per request, round-robin over the three APIs
        for (int i = 0; i < RUNS; i += 50) {
            String batch = partitions.subList(i, Math.min(RUNS, i + 50)).stream().map(p -> "\"" + p + "\"")
                    .collect(Collectors.joining(","));
            var r = apis.get((i / 50) % apis.size()).postJson("/api/v1/graphs/" + g + "/runs",
                    "{\"partitions\":[" + batch + "]}");
            assertThat(r.status()).as(r.body().toString()).isEqualTo(200);
        }
        await("every run complete").atMost(Duration.ofSeconds(480)).pollInterval(Duration.ofSeconds(1))
                .until(() -> states(apis.get(1), g).getOrDefault("complete", 0L) == RUNS);
        long runsMs = (System.nanoTime() - t1) / 1_000_000;

        // settled once: each settle is one successful compare-and-settle, counted by the replica that made it
        Map<String, Long> settledBy = new LinkedHashMap<>();
        for (String s : SCHEDULERS) {
            settledBy.put(s, settled(cluster.apiPorts.get(s), g));
        }
        assertThat(settledBy.values().stream().mapToLong(Long::longValue).sum()).as("settles " + settledBy)
                .isEqualTo(RUNS);

        AttemptLog log = AttemptLog.read(attemptsFile);
        assertThat(log.byRunId()).as("task instances").hasSize(2 * RUNS);
        assertThat(log.overlaps(List.of(), 2_000)).as("attempts of one instance at once").isEmpty();
        assertThat(log.byRunId().values()).allSatisfy(attempts -> assertThat(attempts).allMatch(AttemptLog.Attempt::finished));
        Map<String, Long> attemptsBy = new TreeMap<>(log.byRunId().values().stream().flatMap(List::stream)
                .collect(Collectors.groupingBy(a -> a.member().replaceFirst("-i\\d+$", ""), Collectors.counting())));

        // the data is spread over the Cluster: every primary holds keys (a run's keys are on its shard's slot)
        Map<String, Long> keysByNode = new TreeMap<>();
        for (HostAndPort node : cluster.redisCluster().nodes()) {
            try (Jedis j = new Jedis(node)) {
                keysByNode.put(node.toString(), j.dbSize());
            }
        }

        System.out.printf("REPLICAS %d runs (%d task instances, %d attempts) on %d scheduler+api and %d pool JVMs"
                + " and a %d-primary Redis Cluster: members started in %d ms, runs complete in %d ms;"
                + " settled by scheduler %s; attempts by worker %s; keys by Redis node %s%n",
                RUNS, 2 * RUNS, log.attempts(), SCHEDULERS.size(), WORKERS.size(), keysByNode.size(), startedMs,
                runsMs, settledBy, attemptsBy, keysByNode);
        assertThat(keysByNode).as("every Cluster primary holds data").hasSize(3)
                .allSatisfy((n, keys) -> assertThat(keys).isPositive());
        assertThat(settledBy).as("every scheduler replica settled runs").allSatisfy((s, n) -> assertThat(n).isPositive());
        assertThat(attemptsBy.keySet()).as("every worker ran attempts").containsExactlyInAnyOrderElementsOf(WORKERS);
    }

    private static Map<String, Long> states(SwaleClient api, String g) {
        var r = api.get("/api/v1/graphs/" + g + "/runs?limit=1000");
        Map<String, Long> out = new TreeMap<>();
        for (JsonNode run : r.body()) {
            out.merge(run.get("state").asString(), 1L, Long::sum);
        }
        return out;
    }

    private static final Pattern SETTLED = Pattern.compile("^swale_runs_settled_total\\{([^}]*)} ([0-9.E]+)$",
            Pattern.MULTILINE);

    /** This replica's settles of graph {@code g}, from its Prometheus endpoint. */
    private long settled(int port, String g) throws Exception {
        String text = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        long n = 0;
        Matcher m = SETTLED.matcher(text);
        while (m.find()) {
            if (m.group(1).contains("graph=\"" + g + "\"")) {
                n += (long) Double.parseDouble(m.group(2));
            }
        }
        return n;
    }

    private String definition(String g) {
        List<String> lines = new ArrayList<>(List.of("[graph]", "name = \"" + g + "\""));
        for (String n : List.of("a", "b")) {
            lines.add("[[node]]");
            lines.add("name = \"" + n + "\"");
            lines.add("produces = \"" + g + "_" + n + "\"");
            if (n.equals("b")) {
                lines.add("consumes = [\"" + g + "_a\"]");
            }
            lines.add("operator = \"shell\"");
            lines.add("retries = 3");
            lines.add("[node.params]");
            lines.add("command = \"" + AttemptLog.command(attemptsFile, "0.05").replace("\\", "\\\\")
                    .replace("\"", "\\\"") + "\"");
        }
        return String.join("\n", lines) + "\n";
    }
}
