package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.settings.SwaleProperties;
import io.swale.store.RunKey;
import io.swale.store.redis.RedisKeys;
import io.swale.graph.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.JsonNode;

/**
 * Mapped nodes end to end (docs/dynamic-graphs.md): items submitted under max_parallel, the node's record derived
 * from its items, trigger rules on the node as a whole, the rerun of one item, the empty map and the bad maps, on
 * the real embedded Kafka and Redis. Its own context: a pool wide enough that only max_parallel limits the items.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=",
        "swale.worker.cancel-poll=200ms",
        "swale.scheduler.delayed-poll=100ms",
        "spring.kafka.consumer.properties.max.poll.interval.ms=4000",
        "swale.pools.wide.slots=24",
        "swale.worker.pools=default,wide"})
class MappedNodeIT {
    @LocalServerPort
    int port;

    @Autowired
    UnifiedJedis redis;

    @Autowired
    SwaleProperties props;

    SwaleClient api;

    @BeforeEach
    void client() {
        api = new SwaleClient(port);
    }

    @Test
    void hundredItemsRunAtMostTenAtOnceAndDownstreamSeesTheList(@TempDir Path dir) throws Exception {
        String g = IntegrationTest.unique("map100");
        Path log = dir.resolve("log");
        String files = IntStream.range(0, 100).mapToObj(i -> "\"f" + i + "\"").collect(Collectors.joining(","));
        String toml = """
                [graph]
                name = "%1$s"
                [[node]]
                name = "list"
                operator = "shell"
                pool = "wide"
                [node.params]
                command = '''printf '%%s' '{"files": [%2$s]}' '''
                [[node]]
                name = "each"
                after = ["list"]
                operator = "shell"
                pool = "wide"
                map = "{{ upstream.list.files }}"
                max_parallel = 10
                [node.params]
                command = '''echo "s $(date +%%s%%N) {{ map.index }}" >> %3$s; sleep 0.05; echo "e $(date +%%s%%N) {{ map.index }}" >> %3$s; printf '{"i": %%s, "f": "%%s"}' {{ map.index }} {{ item | sh }}'''
                [[node]]
                name = "total"
                after = ["each"]
                operator = "shell"
                pool = "wide"
                [node.params]
                command = '''printf '{"n": %%s}' $(printf '%%s' {{ upstream.each | sh }} | grep -o '"i"' | wc -l)'''
                """.formatted(g, files, log);
        assertThat(api.publish(toml).status()).isEqualTo(201);
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p", 120);

        assertThat(run.get("state").asString()).isEqualTo("complete");
        JsonNode each = SwaleClient.node(run, "each");
        assertThat(each.get("items").get("total").asInt()).isEqualTo(100);
        assertThat(each.get("items").get("done").asInt()).isEqualTo(100);
        JsonNode list = each.get("record").get("output");
        assertThat(list.size()).isEqualTo(100);
        assertThat(list.get(37).get("f").asString()).isEqualTo("f37");
        assertThat(list.get(37).get("i").asInt()).isEqualTo(37);
        assertThat(SwaleClient.node(run, "total").get("record").get("output").get("n").asInt()).isEqualTo(100);
        assertThat(each.get("items").get("list").get(3).get("runId").asString()).isEqualTo(g + "-p-each[3]-r0");

        List<String> lines = Files.readAllLines(log);
        assertThat(lines.stream().filter(l -> l.startsWith("s ")).map(l -> l.split(" ")[2]).distinct().count())
                .isEqualTo(100);
        assertThat(maxRunningAtOnce(lines)).isBetween(1, 10);
    }

    @Test
    void oneFailedItemFailsTheNodeAllDoneRunsAllSucceededIsBlockedAndTheItemsRerunCompletes(@TempDir Path dir)
            throws Exception {
        String g = IntegrationTest.unique("mapfail");
        Path fixed = dir.resolve("fixed");
        api.publish(mapped(g, "[10, 11, 12, 13, 14]", "{ test {{ map.index }} != 2 || test -f " + fixed
                + "; } && printf '{\\\"v\\\": %s}' {{ item }}", ""));
        api.start(g, "p");

        JsonNode failed = awaitSettled(g, "p", 60);

        assertThat(failed.get("state").asString()).isEqualTo("failed");
        JsonNode each = SwaleClient.node(failed, "each");
        assertThat(each.get("state").asString()).isEqualTo("failed");
        assertThat(each.get("record").get("error").asString()).startsWith("1 of 5 items failed; first: [2]");
        assertThat(each.get("items").get("failed").asInt()).isEqualTo(1);
        assertThat(each.get("items").get("succeeded").asInt()).isEqualTo(4);
        assertThat(SwaleClient.node(failed, "strict").get("state").asString()).isEqualTo("blocked");
        assertThat(SwaleClient.node(failed, "report").get("state").asString()).isEqualTo("succeeded");

        Files.writeString(fixed, "ok");
        SwaleClient.Response rerun = api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/each%5B2%5D/rerun", "");
        assertThat(rerun.status()).isEqualTo(200);
        assertThat(rerun.body().get("runId").asString()).isEqualTo(g + "-p-each[2]-r1");

        JsonNode complete = awaitSettled(g, "p", 60);
        assertThat(complete.get("state").asString()).isEqualTo("complete");
        JsonNode rerunEach = SwaleClient.node(complete, "each");
        assertThat(rerunEach.get("record").get("output").toString())
                .isEqualTo("[{\"v\":10},{\"v\":11},{\"v\":12},{\"v\":13},{\"v\":14}]");
        // the other items kept their records: only item 2 ran again
        assertThat(rerunEach.get("items").get("list").get(1).get("runId").asString()).isEqualTo(g + "-p-each[1]-r0");
        assertThat(rerunEach.get("items").get("list").get(2).get("runId").asString()).isEqualTo(g + "-p-each[2]-r1");
        assertThat(SwaleClient.node(complete, "strict").get("state").asString()).isEqualTo("succeeded");
        // all_done kept the record it wrote after the failure
        assertThat(SwaleClient.node(complete, "report").get("record").get("runId").asString())
                .isEqualTo(g + "-p-report-r0");
    }

    @Test
    void anEmptyMapSucceedsWithAnEmptyListAndDownstreamRuns() {
        String g = IntegrationTest.unique("mapempty");
        api.publish(mapped(g, "[]", "printf '{}'", ""));
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p", 30);

        assertThat(run.get("state").asString()).isEqualTo("complete");
        JsonNode each = SwaleClient.node(run, "each");
        assertThat(each.get("record").get("output").toString()).isEqualTo("[]");
        assertThat(each.get("items").get("total").asInt()).isZero();
        assertThat(SwaleClient.node(run, "strict").get("state").asString()).isEqualTo("succeeded");
    }

    @Test
    void aMapOverANonArrayFailsTheNodePermanentlyNamingItAndTheTypeFound() {
        String g = IntegrationTest.unique("mapobj");
        api.publish(mapped(g, "{\"a\": 1}", "printf '{}'", ""));
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p", 30);

        assertThat(run.get("state").asString()).isEqualTo("failed");
        JsonNode each = SwaleClient.node(run, "each");
        assertThat(each.get("record").get("error").asString())
                .contains("node `each`").contains("must hold a JSON array, found an object");
        assertThat(each.get("items").get("total").isNull()).isTrue();
        assertThat(SwaleClient.node(run, "strict").get("state").asString()).isEqualTo("blocked");
        assertThat(itemInstances(g, "p", "each")).isZero();
    }

    @Test
    void moreItemsThanMaxMapFailTheNodeNamingItWithNothingSubmitted() {
        String g = IntegrationTest.unique("mapmax");
        api.publish(mapped(g, "[1, 2, 3, 4, 5]", "printf '{}'", "max_map = 3"));
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p", 30);

        assertThat(SwaleClient.node(run, "each").get("record").get("error").asString())
                .contains("node `each`").contains("holds 5 items, more than max_map 3");
        assertThat(itemInstances(g, "p", "each")).isZero();
    }

    @Test
    void badMappingKeysAreRefusedAtPublishWithEveryFaultNamingItsNode() {
        String g = IntegrationTest.unique("mapbad");
        String toml = """
                [graph]
                name = "%1$s"
                [[node]]
                name = "list"
                operator = "noop"
                [[node]]
                name = "each"
                after = ["list"]
                operator = "noop"
                map = "{{ upstream.nope.files }}"
                max_parallel = 0
                [[node]]
                name = "plain"
                after = ["list"]
                operator = "noop"
                max_map = 5
                [node.params]
                x = "{{ item }}"
                """.formatted(g);

        SwaleClient.Response r = api.publish(toml);

        assertThat(r.status()).isEqualTo(422);
        String body = r.body().toString();
        assertThat(body).contains("\"kind\":\"InvalidMap\",\"node\":\"each\"")
                .contains("node `each`: `map` refers to `nope`, which is not an upstream");
        assertThat(body).contains("\"kind\":\"InvalidMapLimit\",\"node\":\"each\"")
                .contains("node `each`: `max_parallel` is 0");
        assertThat(body).contains("\"kind\":\"InvalidMapLimit\",\"node\":\"plain\"")
                .contains("node `plain`: `max_map` is set without `map`");
        assertThat(body).contains("\"kind\":\"ItemOutsideMap\",\"node\":\"plain\"");
        assertThat(api.get("/api/v1/graphs/" + g).status()).isEqualTo(404);

        SwaleClient.Response yaml = api.post("/api/v1/definitions", "application/yaml", """
                graph:
                  name: %s
                node:
                  - name: list
                    operator: noop
                  - name: each
                    after: [list]
                    operator: noop
                    map: "{{ upstream.list.files }}"
                    max_parallel: ten
                """.formatted(g));
        assertThat(yaml.status()).isBetween(400, 422);
        assertThat(yaml.body().toString()).contains("`each`").contains("`max_parallel` must be an integer");
        assertThat(api.get("/api/v1/graphs/" + g).status()).isEqualTo(404);
    }

    @Test
    void costOfAThousandItemMap() throws Exception {
        String g = IntegrationTest.unique("map1000");
        String items = IntStream.range(0, 1000).mapToObj(Integer::toString).collect(Collectors.joining(","));
        String toml = """
                [graph]
                name = "%1$s"
                [[node]]
                name = "list"
                operator = "shell"
                pool = "wide"
                [node.params]
                command = '''printf '%%s' '{"n": [%2$s]}' '''
                [[node]]
                name = "each"
                after = ["list"]
                operator = "noop"
                pool = "wide"
                map = "{{ upstream.list.n }}"
                [node.params]
                i = "{{ map.index }}"
                """.formatted(g, items);
        assertThat(api.publish(toml).status()).isEqualTo(201);
        RedisKeys keys = new RedisKeys(props.redis().keyPrefix());
        RunKey key = new RunKey(g, Partition.of("p"));
        long t0 = System.nanoTime();
        api.start(g, "p");
        long[] submittedAt = new long[1];
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(5)).until(() -> {
            if (redis.hlen(keys.instances(key)) >= 1001) {
                submittedAt[0] = System.nanoTime();
                return true;
            }
            return false;
        });
        JsonNode run = awaitSettled(g, "p", 180);
        long settled = System.nanoTime();
        assertThat(run.get("state").asString()).isEqualTo("complete");
        assertThat(SwaleClient.node(run, "each").get("record").get("output").size()).isEqualTo(1000);
        List<String> report = new ArrayList<>();
        long total = 0;
        for (String k : List.of(keys.run(key), keys.nodeRecords(key), keys.instances(key), keys.inputs(key),
                keys.attempts(key))) {
            Long bytes = redis.memoryUsage(k, 0);
            total += bytes == null ? 0 : bytes;
            report.add(k + " " + bytes + " bytes");
        }
        report.add(0, "1000-item map (noop items), shared 2-core machine, embedded Kafka + redis-server");
        report.add(1, "start to 1000 item instances in Redis: " + (submittedAt[0] - t0) / 1_000_000 + " ms");
        report.add(2, "start to run complete: " + (settled - t0) / 1_000_000 + " ms");
        report.add(3, "Redis memory of the run (MEMORY USAGE ... SAMPLES 0): " + total + " bytes");
        Path out = Path.of("target", "mapped-cost.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
        assertThat(total).isPositive();
    }

    /** list → each (mapped over {@code array}) → strict (all_succeeded) and report (all_done). */
    private static String mapped(String g, String array, String itemCommand, String extra) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "list"
                operator = "shell"
                pool = "wide"
                [node.params]
                command = '''printf '%%s' '{"files": %2$s}' '''
                [[node]]
                name = "each"
                after = ["list"]
                operator = "shell"
                pool = "wide"
                map = "{{ upstream.list.files }}"
                %4$s
                [node.params]
                command = "%3$s"
                [[node]]
                name = "strict"
                after = ["each"]
                operator = "noop"
                [[node]]
                name = "report"
                after = ["each"]
                trigger_rule = "all_done"
                operator = "noop"
                """.formatted(g, array, itemCommand, extra);
    }

    private long itemInstances(String g, String p, String node) {
        RedisKeys keys = new RedisKeys(props.redis().keyPrefix());
        return redis.hkeys(keys.instances(new RunKey(g, Partition.of(p)))).stream()
                .filter(id -> id.startsWith(g + "-" + p + "-" + node + "[")).count();
    }

    /** The most items between their start and end lines at any moment of the log. */
    static int maxRunningAtOnce(List<String> lines) {
        record Mark(long at, int delta) {}
        List<Mark> marks = new ArrayList<>();
        for (String l : lines) {
            String[] f = l.split(" ");
            marks.add(new Mark(Long.parseLong(f[1]), f[0].equals("s") ? 1 : -1));
        }
        // at equal times an end counts before a start: the slot was free
        marks.sort((a, b) -> a.at() != b.at() ? Long.compare(a.at(), b.at()) : Integer.compare(a.delta(), b.delta()));
        int running = 0, most = 0;
        for (Mark m : marks) {
            running += m.delta();
            most = Math.max(most, running);
        }
        return most;
    }

    private JsonNode awaitSettled(String graph, String partition, int seconds) {
        await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(100))
                .until(() -> !api.run(graph, partition).get("state").asString().equals("active"));
        return api.run(graph, partition);
    }
}
