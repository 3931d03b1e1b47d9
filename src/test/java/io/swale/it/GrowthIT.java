package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.settings.SwaleProperties;
import io.swale.store.RunKey;
import io.swale.store.redis.RedisKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.JsonNode;

/**
 * Declared growth end to end (docs/dynamic-graphs.md §8) on the real embedded Kafka and Redis: a node's output
 * grows a subgraph that runs before the node's downstream; a bad growth fails the node with every fault and stores
 * nothing; a cycle and a name collision are named; a rerun of the node replaces its growth. The declaring node
 * prints a growth file the test writes, so each case controls the output exactly.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=",
        "swale.worker.cancel-poll=200ms",
        "swale.scheduler.delayed-poll=100ms",
        "spring.kafka.consumer.properties.max.poll.interval.ms=4000"})
class GrowthIT {
    @LocalServerPort
    int port;

    @Autowired
    UnifiedJedis redis;

    @Autowired
    SwaleProperties props;

    SwaleClient api;

    /** Files the tests' waiting shell tasks poll for, opened after each test whatever its outcome. */
    @RegisterExtension
    final ReleaseGates gates = new ReleaseGates();

    @BeforeEach
    void client() {
        api = new SwaleClient(port);
    }

    @Test
    void aGrownThreeNodeSubgraphRunsBeforeTheDeclaringNodesDownstream(@TempDir Path dir) throws Exception {
        String g = IntegrationTest.unique("grow3");
        Path grow = dir.resolve("grow.json");
        // fix -> check -> tell, each long enough that an unblocked downstream would start while they run
        Files.writeString(grow, """
                {"rows": 12, "swale": {"grow": {"node": [
                  {"name": "fix", "operator": "shell", "params": {"command": "sleep 0.3; printf '{\\"fixed\\": 3}'"}},
                  {"name": "check", "after": ["fix"], "operator": "shell",
                   "params": {"command": "sleep 0.3; echo '{\\"seen\\": {{ upstream.fix.fixed }}}'"}},
                  {"name": "tell", "after": ["check"], "operator": "noop"}]}}}""");
        api.publish(declaring(g, grow, 0));
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p", 60);

        assertThat(run.get("state").asString()).isEqualTo("complete");
        for (String grown : List.of("fix", "check", "tell")) {
            JsonNode n = SwaleClient.node(run, grown);
            assertThat(n.get("state").asString()).isEqualTo("succeeded");
            assertThat(n.get("grownBy").asString()).isEqualTo("decide");
            assertThat(n.get("grownText").asString()).isEqualTo("grown by decide");
        }
        assertThat(SwaleClient.node(run, "report").has("grownBy")).isFalse();
        assertThat(SwaleClient.node(run, "check").get("record").get("output").get("seen").asInt()).isEqualTo(3);
        long reportStarted = attempt(run, "report").get("startedMs").asLong();
        long decideEnded = attempt(run, "decide").get("endedMs").asLong();
        for (String grown : List.of("fix", "check", "tell")) {
            JsonNode a = attempt(run, grown);
            assertThat(a.get("startedMs").asLong()).isGreaterThanOrEqualTo(decideEnded);
            assertThat(a.get("endedMs").asLong()).as(grown + " ended before report started")
                    .isLessThanOrEqualTo(reportStarted);
        }
        assertThat(attempt(run, "fix").get("endedMs").asLong())
                .isLessThanOrEqualTo(attempt(run, "check").get("startedMs").asLong());
        assertThat(growths(g, "p")).containsOnlyKeys("decide");
        // the dashboard's grid shows the run's grown nodes as the run view does; was: the plain definition's only
        JsonNode cells = api.get("/api/v1/dashboard/graphs/" + g + "/grid").body().get("runs").get(0).get("cells");
        for (String grown : List.of("fix", "check", "tell")) {
            assertThat(cells.path(grown).path("state").asString()).as(grown).isEqualTo("succeeded");
        }
    }

    /** Was: the grown node's pool was never created, so its submission was refused on every advance. */
    @Test
    void aGrownNodeOnAPoolTheDefinitionDoesNotNameRunsOnAPoolCreatedForIt(@TempDir Path dir) throws Exception {
        String g = IntegrationTest.unique("growpool");
        String pool = "grown_" + Long.toString(System.nanoTime(), 36);
        Path grow = dir.resolve("grow.json");
        Files.writeString(grow, """
                {"swale": {"grow": {"node": [{"name": "elsewhere", "operator": "noop", "pool": "%s"}]}}}"""
                .formatted(pool));
        api.publish(declaring(g, grow, 0));
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p", 60);

        assertThat(run.get("state").asString()).isEqualTo("complete");
        assertThat(SwaleClient.node(run, "elsewhere").get("state").asString()).isEqualTo("succeeded");
        assertThat(api.get("/api/v1/pools/" + pool).status()).isEqualTo(200);
    }

    @Test
    void anInvalidGrowthFailsTheNodeWithEveryFaultStoresNothingAndIsNotRetried(@TempDir Path dir) throws Exception {
        String g = IntegrationTest.unique("growbad");
        Path grow = dir.resolve("grow.json");
        Files.writeString(grow, """
                {"swale": {"grow": {"node": [
                  {"name": "a", "operator": "teleport"},
                  {"name": "b", "after": ["nowhere"], "operator": "noop"},
                  {"name": "b", "operator": "noop"}]}}}""");
        api.publish(declaring(g, grow, 3));
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p", 60);

        assertThat(run.get("state").asString()).isEqualTo("failed");
        JsonNode decide = SwaleClient.node(run, "decide");
        assertThat(decide.get("state").asString()).isEqualTo("failed");
        List<String> lines = decide.get("record").get("error").asString().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("UnknownOperator: ").contains("teleport"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("UnknownNode: ").contains("`nowhere`"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("DuplicateNode: ").contains("`b`"));
        // permanent: one attempt although the node has 3 retries
        assertThat(decide.get("attempts").size()).isEqualTo(1);
        JsonNode output = decide.get("record").get("output");
        assertThat(output == null || output.isNull()).as("the failed record keeps no output").isTrue();
        // nothing of the growth: no node of it in the run, nothing stored
        assertThat(nodeNames(run)).containsExactly("start", "decide", "report");
        assertThat(growths(g, "p")).isEmpty();
        assertThat(redis.hkeys(new RedisKeys(props.redis().keyPrefix()).nodeRecords(new RunKey(g, Partition.of("p")))))
                .contains("t:decide").doesNotContain("t:a", "t:b");
        assertThat(SwaleClient.node(run, "report").get("state").asString()).isEqualTo("blocked");
    }

    @Test
    void aCycleAndANameCollisionAreClearErrors(@TempDir Path dir) throws Exception {
        String cyclic = IntegrationTest.unique("growcycle");
        Path cycle = dir.resolve("cycle.json");
        Files.writeString(cycle, """
                {"swale": {"grow": {"node": [{"name": "late", "after": ["report"], "operator": "noop"}],
                                    "edges_to": ["report"]}}}""");
        api.publish(declaring(cyclic, cycle, 0));
        String colliding = IntegrationTest.unique("growdup");
        Path dup = dir.resolve("dup.json");
        Files.writeString(dup, """
                {"swale": {"grow": {"node": [{"name": "start", "operator": "noop"}]}}}""");
        api.publish(declaring(colliding, dup, 0));
        api.start(cyclic, "p");
        api.start(colliding, "p");

        JsonNode c = awaitSettled(cyclic, "p", 60);
        JsonNode d = awaitSettled(colliding, "p", 60);

        assertThat(SwaleClient.node(c, "decide").get("record").get("error").asString())
                .isEqualTo("Cycle: the growth of `decide` would form a cycle: report -> late -> report");
        assertThat(SwaleClient.node(d, "decide").get("record").get("error").asString())
                .isEqualTo("DuplicateNode: grown node `start` (grown by `decide`) collides with node `start` of the run"
                        + " (in the definition)");
        assertThat(growths(cyclic, "p")).isEmpty();
        assertThat(growths(colliding, "p")).isEmpty();
    }

    @Test
    void aRerunOfTheDeclaringNodeReplacesItsGrowthAndCancelsItsActiveNodes(@TempDir Path dir) throws Exception {
        String g = IntegrationTest.unique("growrerun");
        Path grow = dir.resolve("grow.json");
        // opened only after the test: the rerun must cancel the task waiting on it
        ReleaseGates.Gate never = gates.gate("never");
        Files.writeString(grow, """
                {"swale": {"grow": {"node": [{"name": "first", "operator": "shell",
                  "params": {"command": "%s"}}]}}}""".formatted(never.awaitCommand()));
        api.publish(declaring(g, grow, 0));
        api.start(g, "p");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonNode first = nodeOrNull(api.run(g, "p"), "first");
            return first != null && first.get("instance") != null && !first.get("instance").isNull()
                    && first.get("instance").get("state").asString().equals("running");
        });
        assertThat(SwaleClient.node(api.run(g, "p"), "report").get("state").asString()).isEqualTo("waiting");

        Files.writeString(grow, """
                {"swale": {"grow": {"node": [{"name": "second", "operator": "shell",
                  "params": {"command": "sleep 0.3"}}]}}}""");
        SwaleClient.Response rerun = api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/decide/rerun", "");
        assertThat(rerun.status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonNode r = api.run(g, "p");
            return r.get("state").asString().equals("complete")
                    && SwaleClient.node(r, "decide").get("record").get("runId").asString().endsWith("-r1");
        });
        JsonNode after = api.run(g, "p");

        assertThat(nodeNames(after)).containsExactly("start", "decide", "report", "second");
        assertThat(SwaleClient.node(after, "second").get("grownBy").asString()).isEqualTo("decide");
        assertThat(growths(g, "p").get("decide")).contains("\"second\"").doesNotContain("\"first\"");
        // the old growth's running node was cancelled by the rerun; its record stays in the hash only
        // (its worker sees the flag at its next cancel poll and writes the record)
        String nodes = new RedisKeys(props.redis().keyPrefix()).nodeRecords(new RunKey(g, Partition.of("p")));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> redis.hget(nodes, "t:first") != null);
        assertThat(redis.hget(nodes, "t:first")).contains("\"status\":\"cancelled\"");
        // the downstream ran once, after the new growth's node
        JsonNode report = SwaleClient.node(after, "report");
        assertThat(report.get("record").get("runId").asString()).isEqualTo(g + "-p-report-r0");
        assertThat(attempt(after, "second").get("endedMs").asLong())
                .isLessThanOrEqualTo(attempt(after, "report").get("startedMs").asLong());
    }

    @Test
    void aGrownNodesLeaseIsWaitedForAndHeldLikeAnyNodes(@TempDir Path dir) throws Exception {
        String res = IntegrationTest.unique("growlease");
        ReleaseGates.Gate release = gates.gate("release");
        // another graph's node holds the capacity-1 resource until the test releases it
        String hold = IntegrationTest.unique("growhold");
        api.publish("""
                [graph]
                name = "%s"
                [[node]]
                name = "h"
                operator = "shell"
                leases = ["%s"]
                [node.params]
                command = "%s; printf '{}'"
                """.formatted(hold, res, release.awaitCommand()));
        api.start(hold, "p");
        await().atMost(Duration.ofSeconds(30)).until(() -> resource(res).get("held").asInt() == 1);
        String g = IntegrationTest.unique("growleased");
        Path grow = dir.resolve("grow.json");
        Files.writeString(grow, """
                {"swale": {"grow": {"node": [{"name": "leased", "operator": "shell", "leases": ["%s"],
                  "params": {"command": "sleep 0.3"}}]}}}""".formatted(res));
        api.publish(declaring(g, grow, 0));
        api.start(g, "p");

        // the grown node queues for the lease instead of running unleased
        String leasedRunId = g + "-p-leased-r0";
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> resource(res)
                .get("waiting").valueStream().anyMatch(w -> w.get("runId").asString().equals(leasedRunId)));
        assertThat(SwaleClient.node(api.run(g, "p"), "leased").path("attempts").size()).isZero();
        release.open();
        // once granted it is the holder while it runs
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> resource(res)
                .get("holders").valueStream().anyMatch(h -> h.get("runId").asString().equals(leasedRunId)));
        JsonNode run = awaitSettled(g, "p", 60);
        assertThat(run.get("state").asString()).isEqualTo("complete");
        assertThat(attempt(run, "leased").get("startedMs").asLong())
                .isGreaterThanOrEqualTo(attempt(api.run(hold, "p"), "h").get("endedMs").asLong());
        await().atMost(Duration.ofSeconds(10)).until(() -> resource(res).get("held").asInt() == 0);
    }

    private JsonNode resource(String name) {
        return api.get("/api/v1/resources/" + name).body();
    }

    private static JsonNode nodeOrNull(JsonNode run, String name) {
        for (JsonNode n : run.get("nodes")) {
            if (n.get("name").asString().equals(name)) {
                return n;
            }
        }
        return null;
    }

    /** start → decide (prints the growth file) → report; decide with {@code retries}. */
    private static String declaring(String g, Path grow, int retries) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "start"
                operator = "noop"
                [[node]]
                name = "decide"
                after = ["start"]
                operator = "shell"
                retries = %3$d
                [node.params]
                command = "cat %2$s"
                [[node]]
                name = "report"
                after = ["decide"]
                operator = "shell"
                [node.params]
                command = "true"
                """.formatted(g, grow, retries);
    }

    /** The attempt that wrote the node's record (its last). */
    private static JsonNode attempt(JsonNode run, String node) {
        JsonNode attempts = SwaleClient.node(run, node).get("attempts");
        assertThat(attempts.size()).as(node + " attempts").isPositive();
        return attempts.get(attempts.size() - 1);
    }

    private static List<String> nodeNames(JsonNode run) {
        List<String> names = new ArrayList<>();
        run.get("nodes").forEach(n -> names.add(n.get("name").asString()));
        return names;
    }

    private Map<String, String> growths(String g, String p) {
        return redis.hgetAll(new RedisKeys(props.redis().keyPrefix()).growths(new RunKey(g, Partition.of(p))));
    }

    private JsonNode awaitSettled(String graph, String partition, int seconds) {
        await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(100))
                .until(() -> !api.run(graph, partition).get("state").asString().equals("active"));
        return api.run(graph, partition);
    }
}
