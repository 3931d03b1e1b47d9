package io.swale.it;

import static io.swale.it.BackfillIT.assertField;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.definition.DefinitionHash;
import io.swale.kafka.DeadLetterBrowser;
import io.swale.kafka.KafkaInspector;
import io.swale.periodic.SyncService;
import io.swale.store.DefinitionStore;
import io.swale.store.DefinitionStore.StoredText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import tools.jackson.databind.JsonNode;

/**
 * The operator console's reads over plain HTTP: a run's timeline with a retried node, node durations over
 * the last runs, the grid filtered by state and partition range, dead letters paged to the last one,
 * definitions with source, history and refusal, and asset lineage.
 */
class ConsoleApiIT extends IntegrationTest {

    @Autowired
    DefinitionStore definitions;

    @Autowired
    SyncService sync;

    @Autowired
    DeadLetterBrowser deadLetters;

    @Autowired
    KafkaInspector inspector;

    @Autowired
    KafkaProperties kafka;

    /** flaky fails its first attempt (exit 75, temporary) and succeeds on its retry; after follows it. */
    static String retriedOnce(String g, Path marker) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "flaky"
                produces = "%1$s_flaky"
                operator = "shell"
                retries = 1
                [node.params]
                command = "if test -f '%2$s'; then printf '{}'; else touch '%2$s'; echo 'first try fails' >&2; exit 75; fi"
                [[node]]
                name = "after"
                produces = "%1$s_after"
                consumes = ["%1$s_flaky"]
                operator = "noop"
                """.formatted(g, marker);
    }

    /** A daily graph whose node fails for the partitions named. */
    static String failingOn(String g, String... partitions) {
        StringBuilder test = new StringBuilder();
        for (String p : partitions) {
            test.append("test {{ partition }} != ").append(p).append(" && ");
        }
        return """
                [graph]
                name = "%1$s"
                partition = "daily"
                [[node]]
                name = "load"
                produces = "%1$s_load"
                operator = "shell"
                [node.params]
                command = "%2$sprintf '{}'"
                [[node]]
                name = "report"
                produces = "%1$s_report"
                consumes = ["%1$s_load"]
                operator = "noop"
                """.formatted(g, test);
    }

    @Test
    void timelineShowsTheQueueEachAttemptAndTheWaitBeforeTheRetry(@TempDir Path dir) {
        String g = unique("gantt");
        api.publish(retriedOnce(g, dir.resolve("tried")));
        api.start(g, "p");
        assertThat(awaitSettled(g, "p").get("state").asString()).isEqualTo("complete");

        JsonNode t = api.get("/api/v1/dashboard/graphs/" + g + "/runs/p/timeline").body();
        JsonNode flaky = byName(t.get("nodes"), "flaky");
        assertThat(flaky.get("retried").asBoolean()).isTrue();
        assertThat(flaky.get("attempts").asInt()).isEqualTo(2);
        List<JsonNode> runs = new ArrayList<>();
        for (JsonNode b : flaky.get("bars")) {
            if (b.get("kind").asString().equals("run")) {
                runs.add(b);
            }
        }
        assertThat(runs).extracting(b -> b.get("outcome").asString()).containsExactly("retry", "succeeded");
        assertThat(runs.get(0).get("error").asString()).contains("first try fails");
        assertThat(runs).extracting(b -> b.get("attempt").asInt()).containsExactly(1, 2);
        // the wait between the attempts spans from the end of the first to the start of the second
        JsonNode wait = null;
        for (JsonNode b : flaky.get("bars")) {
            if (b.get("kind").asString().equals("wait")) {
                wait = b;
            }
        }
        assertThat(wait).as(flaky.toString()).isNotNull();
        assertThat(wait.get("from").asLong()).isEqualTo(runs.get(0).get("to").asLong());
        assertThat(wait.get("to").asLong()).isEqualTo(runs.get(1).get("from").asLong());
        // the retry is at least the backoff's first delay (1 s, jitter only adds) after the failure
        assertThat(wait.get("to").asLong() - wait.get("from").asLong()).isGreaterThanOrEqualTo(1_000);

        JsonNode after = byName(t.get("nodes"), "after");
        assertThat(after.get("retried").asBoolean()).isFalse();
        JsonNode afterRun = last(after.get("bars"));
        assertThat(afterRun.get("kind").asString()).isEqualTo("run");
        assertThat(afterRun.get("outcome").asString()).isEqualTo("succeeded");
        assertThat(afterRun.get("from").asLong()).isGreaterThanOrEqualTo(runs.get(1).get("to").asLong());
        assertThat(t.get("from").asLong()).isLessThanOrEqualTo(runs.get(0).get("from").asLong());
        assertThat(t.get("to").asLong()).isGreaterThanOrEqualTo(afterRun.get("to").asLong());

        // A rerun adds its instance's bars to the node's row.
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/after/rerun", "").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode again = byName(api.get("/api/v1/dashboard/graphs/" + g + "/runs/p/timeline").body().get("nodes"), "after");
            List<String> runIds = new ArrayList<>();
            again.get("bars").forEach(b -> {
                if (b.get("kind").asString().equals("run")) {
                    runIds.add(b.get("runId").asString() + " " + b.get("outcome").asString());
                }
            });
            assertThat(runIds).containsExactly(g + "-p-after-r0 succeeded", g + "-p-after-r1 succeeded");
        });

        assertThat(api.get("/api/v1/dashboard/graphs/" + g + "/runs/nosuch/timeline").status()).isEqualTo(404);
        assertField(api.get("/api/v1/dashboard/graphs/" + g + "/runs/bad-key/timeline"), 400, "partition");
    }

    @Test
    void durationsListEachNodesRunTimeOverTheLastRunsOldestFirst() {
        String g = unique("trend");
        api.publish(failingOn(g, "20260103"));
        for (String p : List.of("20260101", "20260102", "20260103")) {
            api.start(g, p);
            awaitSettled(g, p);
        }
        JsonNode d = api.get("/api/v1/dashboard/graphs/" + g + "/durations?runs=2").body();
        assertThat(d.get("nodes").toString()).isEqualTo("[\"load\",\"report\"]");
        assertThat(d.get("runs")).extracting(r -> r.get("partition").asString()).containsExactly("20260102", "20260103");
        JsonNode ok = d.get("runs").get(0).get("nodes");
        assertThat(ok.get("load").get("status").asString()).isEqualTo("succeeded");
        assertThat(ok.get("load").get("ms").asLong()).isNotNegative();
        assertThat(ok.get("report").get("status").asString()).isEqualTo("succeeded");
        JsonNode failed = d.get("runs").get(1).get("nodes");
        assertThat(failed.get("load").get("status").asString()).isEqualTo("failed");
        assertThat(failed.has("report")).as("a blocked node has no run time").isFalse();

        assertThat(api.get("/api/v1/dashboard/graphs/" + g + "/durations").body().get("runs").size()).isEqualTo(3);
        assertField(api.get("/api/v1/dashboard/graphs/" + g + "/durations?runs=0"), 400, "runs");
        assertField(api.get("/api/v1/dashboard/graphs/" + g + "/durations?runs=201"), 400, "runs");
        assertThat(api.get("/api/v1/dashboard/graphs/" + unique("none") + "/durations").status()).isEqualTo(404);
    }

    @Test
    void gridFiltersByStateAndPagesByPartitionRange() {
        String g = unique("filter");
        api.publish(failingOn(g, "20260102", "20260104"));
        List<String> all = List.of("20260101", "20260102", "20260103", "20260104", "20260105");
        api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"" + String.join("\",\"", all) + "\"]}");
        for (String p : all) {
            awaitSettled(g, p);
        }
        String grid = "/api/v1/dashboard/graphs/" + g + "/grid";

        JsonNode failed = api.get(grid + "?state=failed").body();
        assertThat(partitions(failed)).containsExactly("20260104", "20260102");
        assertThat(failed.get("matched").asInt()).isEqualTo(2);
        assertThat(failed.get("more").asBoolean()).isFalse();
        assertThat(failed.get("total").asInt()).isEqualTo(5);

        JsonNode firstFailed = api.get(grid + "?state=failed&limit=1").body();
        assertThat(partitions(firstFailed)).containsExactly("20260104");
        assertThat(firstFailed.get("more").asBoolean()).isTrue();
        assertThat(firstFailed.get("matched").isNull()).isTrue();
        JsonNode secondFailed = api.get(grid + "?state=failed&limit=1&offset=1").body();
        assertThat(partitions(secondFailed)).containsExactly("20260102");
        assertThat(secondFailed.get("more").asBoolean()).isFalse();

        JsonNode range = api.get(grid + "?from=20260102&to=20260104").body();
        assertThat(partitions(range)).containsExactly("20260104", "20260103", "20260102");
        assertThat(range.get("total").asInt()).isEqualTo(3);
        JsonNode rangePage = api.get(grid + "?from=20260102&to=20260104&limit=2&offset=2").body();
        assertThat(partitions(rangePage)).containsExactly("20260102");
        assertThat(rangePage.get("more").asBoolean()).isFalse();
        assertThat(partitions(api.get(grid + "?from=20260103&state=complete").body())).containsExactly("20260105", "20260103");
        assertThat(partitions(api.get(grid + "?to=20260101").body())).containsExactly("20260101");

        assertField(api.get(grid + "?state=bogus"), 400, "state");
        assertField(api.get(grid + "?from=not-a-key"), 400, "from");
        assertField(api.get(grid + "?from=20260104&to=20260102"), 400, "to");
    }

    @Test
    void deadLettersArePagedToTheLastLetterEachWithItsAttemptHistory() {
        String g = unique("dltpage");
        api.publish(Graphs.daily(g, true));
        List<String> days = List.of("20260201", "20260202", "20260203");
        api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"" + String.join("\",\"", days) + "\"]}");
        for (String p : days) {
            awaitSettled(g, p);
        }
        Set<String> ours = new HashSet<>();
        days.forEach(p -> ours.add(g + "-" + p + "-only-r0"));

        // Two letters a page from the oldest: every letter is seen once, ours among them.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            List<JsonNode> seen = new ArrayList<>();
            String cursor = null;
            long total = -1;
            for (int page = 0; page < 200; page++) {
                JsonNode body = api.get("/api/v1/dead-letters/pool.default/page?limit=2"
                        + (cursor == null ? "" : "&cursor=" + cursor)).body();
                total = body.get("total").asLong();
                body.get("letters").forEach(seen::add);
                assertThat(body.get("letters").size()).isLessThanOrEqualTo(2);
                if (body.get("next").isNull()) {
                    break;
                }
                cursor = body.get("next").asString();
            }
            Set<String> ids = new HashSet<>();
            seen.forEach(l -> ids.add(l.get("id").asString()));
            assertThat(ids).hasSize(seen.size());
            assertThat(seen).hasSize((int) total);
            Set<String> runIds = new HashSet<>();
            seen.forEach(l -> runIds.add(l.path("runId").asString("")));
            assertThat(runIds).containsAll(ours);
            for (JsonNode l : seen) {
                if (ours.contains(l.path("runId").asString(""))) {
                    assertThat(l.get("history").size()).isEqualTo(1);
                    assertThat(l.get("history").get(0).get("outcome").asString()).isEqualTo("failed");
                    assertThat(l.get("history").get(0).get("error").asString()).contains("broken");
                }
            }
        });

        // A read its deadline cuts short says so (partial) and keeps the cursor where it was: nothing is skipped.
        String topic = api.get("/api/v1/dead-letters/pool.default/page?limit=1").body().get("topic").asString();
        DeadLetterBrowser.Page cut = new DeadLetterBrowser(kafka.buildConsumerProperties(), inspector, Duration.ZERO)
                .page(topic, Map.of(), 5).orElseThrow();
        assertThat(cut.partial()).isTrue();
        assertThat(cut.letters()).isEmpty();
        assertThat(cut.more()).isTrue();
        DeadLetterBrowser.Page whole = deadLetters.page(topic, Map.of(), 5).orElseThrow();
        assertThat(whole.partial()).isFalse();
        assertThat(whole.letters()).isNotEmpty();

        assertField(api.get("/api/v1/dead-letters/pool.default/page?cursor=zz"), 400, "cursor");
        assertField(api.get("/api/v1/dead-letters/pool.default/page?limit=101"), 400, "limit");
        assertField(api.get("/api/v1/dead-letters/pool.default/page?limit=0"), 400, "limit");
        SwaleClient.Response widest = api.get("/api/v1/dead-letters/pool.default/page?limit=100");
        assertThat(widest.status()).isEqualTo(200);
        assertThat(widest.body().get("partial").isBoolean()).isTrue();
        assertField(api.get("/api/v1/dead-letters/nosuch/page"), 400, "channel");
    }

    @Test
    void definitionShowsItsSourceAsPublishedItsHistoryAndARefusalWithItsReason() {
        String g = unique("defview");
        String v1 = Graphs.chain(g, 1);
        String v2 = "# second version\n" + Graphs.chain(g, 2);
        String h1 = api.publish(v1).body().get("hash").asString();
        String h2 = api.publish(v2).body().get("hash").asString();

        JsonNode d = api.get("/api/v1/dashboard/graphs/" + g + "/definition").body();
        assertThat(d.get("source").get("hash").asString()).isEqualTo(h2);
        assertThat(d.get("source").get("text").asString()).isEqualTo(v2);
        assertThat(d.get("source").get("format").asString()).isEqualTo("toml");
        assertThat(d.get("adopted").get("definition").asString()).isEqualTo(h2);
        assertThat(d.get("pending").asBoolean()).isFalse();
        List<String> history = new ArrayList<>();
        d.get("history").forEach(e -> history.add(e.get("event").asString() + " " + e.get("hash").asString()));
        assertThat(history).containsExactly("adopted " + h2, "published " + h2, "adopted " + h1, "published " + h1);
        assertThat(api.get("/api/v1/dashboard/graphs/" + g + "/definition?hash=" + h1).body().get("source").get("text")
                .asString()).isEqualTo(v1);

        // A pointer to a definition of another graph's name is refused at adoption, with the reason.
        String alien = Graphs.chain(unique("named"), 1);
        String alienHash = DefinitionHash.of(alien);
        definitions.putText(alienHash, new StoredText(alien, "toml"));
        definitions.movePointer(g, alienHash);
        sync.sync();
        JsonNode refused = api.get("/api/v1/dashboard/graphs/" + g + "/definition").body();
        assertThat(refused.get("pending").asBoolean()).isTrue();
        assertThat(refused.get("refusal").get("definition").asString()).isEqualTo(alienHash);
        assertThat(refused.get("refusal").get("reason").asString()).isNotBlank();
        assertThat(refused.get("history").get(0).get("event").asString()).isEqualTo("refused");
        assertThat(refused.get("history").get(0).get("reason").asString())
                .isEqualTo(refused.get("refusal").get("reason").asString());
        assertThat(refused.get("source").get("hash").asString()).isEqualTo(alienHash);

        // A hash the graph never had is not served, whatever the store holds.
        assertThat(api.get("/api/v1/dashboard/graphs/" + unique("other") + "/definition").status()).isEqualTo(404);
        String foreign = api.publish(Graphs.chain(unique("foreign"), 1)).body().get("hash").asString();
        assertThat(api.get("/api/v1/dashboard/graphs/" + g + "/definition?hash=" + foreign).status()).isEqualTo(404);
        assertField(api.get("/api/v1/dashboard/graphs/" + g + "/definition?hash=XYZ"), 400, "hash");
    }

    @Test
    void assetsShowTheirProducerWhatTheyAreMadeFromTheirConsumersAndNewestRecord() {
        String g = unique("lineage");
        api.publish(Graphs.chain(g, 3));
        api.start(g, "p1");
        awaitSettled(g, "p1");
        api.start(g, "p2");
        awaitSettled(g, "p2");

        JsonNode l = api.get("/api/v1/dashboard/assets").body();
        assertThat(l.get("graphs").toString()).contains("\"" + g + "\"");
        JsonNode middle = null;
        for (JsonNode a : l.get("assets")) {
            if (a.get("asset").asString().equals(g + "_n1")) {
                middle = a;
            }
        }
        assertThat(middle).isNotNull();
        assertThat(middle.get("producer").toString()).isEqualTo("{\"graph\":\"" + g + "\",\"node\":\"n1\"}");
        assertThat(middle.get("upstreams").toString()).isEqualTo("[\"" + g + "_n0\"]");
        assertThat(middle.get("consumers").toString()).isEqualTo("[{\"graph\":\"" + g + "\",\"node\":\"n2\"}]");
        assertThat(middle.get("newest").get("partition").asString()).isEqualTo("p2");
        assertThat(middle.get("newest").get("status").asString()).isEqualTo("succeeded");
        assertThat(middle.get("newest").get("runId").asString()).isEqualTo(g + "-p2-n1-r0");
    }

    private static JsonNode byName(JsonNode nodes, String name) {
        for (JsonNode n : nodes) {
            if (n.get("name").asString().equals(name)) {
                return n;
            }
        }
        throw new AssertionError("no node " + name + " in " + nodes);
    }

    private static JsonNode last(JsonNode array) {
        return array.get(array.size() - 1);
    }

    private static List<String> partitions(JsonNode grid) {
        List<String> out = new ArrayList<>();
        grid.get("runs").forEach(r -> out.add(r.get("partition").asString()));
        return out;
    }
}
