package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;

/**
 * What one run costs Redis, for docs/scaling.md: the bytes of a settled 10-node run's own keys
 * ({@code MEMORY USAGE}), the growth of {@code used_memory} per run (indexes included), and the commands per
 * task instance by name ({@code INFO commandstats} around the runs). Prints {@code FOOTPRINT …}; asserts only
 * that the figures were taken.
 */
class RedisFootprintIT extends IntegrationTest {
    static final int RUNS = 100;
    static final int NODES = 10;

    @Autowired
    org.springframework.core.env.Environment env;

    /** One direct connection: INFO, CONFIG RESETSTAT and MEMORY USAGE are per server, not UnifiedJedis calls. */
    private Jedis server() {
        return new Jedis(env.getRequiredProperty("spring.data.redis.host"),
                env.getRequiredProperty("spring.data.redis.port", Integer.class));
    }

    @Test
    void measuresBytesPerRunAndCommandsPerTask() {
        String g = unique("footprint");
        StringBuilder toml = new StringBuilder("[graph]\nname = \"" + g + "\"\n");
        for (int i = 0; i < NODES; i++) {
            toml.append("[[node]]\nname = \"n").append(i).append("\"\nproduces = \"").append(g).append("_n").append(i)
                    .append("\"\n");
            if (i > 0) {
                toml.append("consumes = [\"").append(g).append("_n").append(i - 1).append("\"]\n");
            }
            toml.append("operator = \"noop\"\n");
        }
        assertThat(api.publish(toml.toString()).status()).isLessThan(300);
        List<String> partitions = IntStream.range(0, RUNS).mapToObj(i -> "p" + i).toList();
        long usedBefore;
        try (Jedis j = server()) {
            j.configResetStat();
            usedBefore = usedMemory(j);
        }
        String all = partitions.stream().map(p -> "\"" + p + "\"").collect(Collectors.joining(","));
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[" + all + "]}").status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(() -> partitions.stream()
                .allMatch(p -> api.run(g, p).get("state").asString().equals("complete")));
        try (Jedis j = server()) {
            Map<String, Long> calls = commandCalls(j.info("commandstats"));
            long usedAfter = usedMemory(j);
            String runId = g + "/p7";
            Map<String, Long> bytes = new TreeMap<>();
            ScanParams match = new ScanParams().match("*:" + runId).count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                var page = j.scan(cursor, match);
                for (String key : page.getResult()) {
                    bytes.put(key.replace(runId, "<id>"), j.memoryUsage(key, 0));
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            long runBytes = bytes.values().stream().mapToLong(Long::longValue).sum();
            long total = calls.values().stream().mapToLong(Long::longValue).sum();
            double tasks = RUNS * NODES;
            Map<String, String> perTask = new LinkedHashMap<>();
            calls.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(12)
                    .forEach(e -> perTask.put(e.getKey(), String.format("%.2f", e.getValue() / tasks)));
            System.out.printf("FOOTPRINT %d runs of a %d-node noop chain: run keys %d bytes (%s); used_memory +%d"
                    + " bytes per run; %.1f Redis commands per task instance (those inside scripts included,"
                    + " this test's API polls included): %s%n", RUNS, NODES, runBytes, bytes,
                    (usedAfter - usedBefore) / RUNS, total / tasks, perTask);
            assertThat(runBytes).isPositive();
            assertThat(total).isPositive();
        }
    }

    private static long usedMemory(Jedis j) {
        return j.info("memory").lines().filter(l -> l.startsWith("used_memory:"))
                .mapToLong(l -> Long.parseLong(l.substring("used_memory:".length()).trim())).findFirst().orElseThrow();
    }

    /** {@code cmdstat_evalsha:calls=12,...} per command. */
    private static Map<String, Long> commandCalls(String info) {
        Map<String, Long> out = new TreeMap<>();
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                String calls = line.substring(line.indexOf("calls=") + 6);
                out.put(name, Long.parseLong(calls.substring(0, calls.indexOf(','))));
            }
        }
        return out;
    }
}
