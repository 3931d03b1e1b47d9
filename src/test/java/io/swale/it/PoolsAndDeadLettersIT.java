package io.swale.it;

import static io.swale.it.BackfillIT.assertField;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Pools with their queues, dead letters of a pool, and the rerun of a dead letter through the rerun path. */
class PoolsAndDeadLettersIT extends IntegrationTest {

    @Test
    void poolsShowSlotsQueuesAndLag() {
        String g = unique("pools");
        api.publish(Graphs.chain(g, 1));
        api.start(g, "p");
        awaitSettled(g, "p");

        JsonNode pools = api.get("/api/v1/pools").body();
        JsonNode def = null;
        for (JsonNode p : pools) {
            if (p.get("name").asString().equals("default")) {
                def = p;
            }
        }
        assertThat(def).isNotNull();
        assertThat(def.get("slots").asInt()).isEqualTo(4);
        assertThat(def.get("pending").isNumber()).isTrue();
        assertThat(def.get("running").isNumber()).isTrue();
        assertThat(def.get("delayed").isNumber()).isTrue();
        assertThat(def.get("lag").isNumber()).as(def.toString()).isTrue();
        assertThat(def.get("consumed").asLong()).isPositive();
        assertThat(def.get("topic").asString()).isEqualTo("swale.pool.default");
        assertThat(api.get("/api/v1/pools/default").body().get("name").asString()).isEqualTo("default");
        assertThat(api.get("/api/v1/pools/nosuchpool").status()).isEqualTo(404);
        assertField(api.get("/api/v1/pools/Bad-Pool"), 400, "pool");
    }

    @Test
    void deadLetterOfAFailedTaskIsBrowsedAndItsNodeRerunWithANewRunId() {
        String g = unique("dlt");
        api.publish(Graphs.failing(g, "/nonexistent/never"));
        api.start(g, "p");
        awaitSettled(g, "p");
        String runId = g + "-p-flaky-r0";

        AtomicReference<JsonNode> letter = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
            for (JsonNode l : api.get("/api/v1/dead-letters/pool.default?limit=1000").body()) {
                if (runId.equals(l.path("runId").asString(null))) {
                    letter.set(l);
                    return true;
                }
            }
            return false;
        });
        JsonNode l = letter.get();
        assertThat(l.get("graph").asString()).isEqualTo(g);
        assertThat(l.get("node").asString()).isEqualTo("flaky");
        assertThat(l.get("attempts").asInt()).isEqualTo(1);
        assertThat(l.get("maxAttempts").asInt()).isEqualTo(1);
        assertThat(l.get("error").asString()).contains("not yet");
        assertThat(l.get("enqueuedAt").asString()).endsWith("Z");

        String path = "/api/v1/dead-letters/pool.default/" + l.get("id").asString() + "/rerun";
        String key = unique("dlt-key");
        SwaleClient.Response rerun = api.postWith(path, "", "Idempotency-Key", key);
        assertThat(rerun.status()).isEqualTo(200);
        assertThat(rerun.body().get("runId").asString()).isEqualTo(g + "-p-flaky-r1");
        JsonNode after = awaitSettled(g, "p");

        // a retry with the same key (its answer lost): the recorded answer, not the guard's refusal (§10)
        SwaleClient.Response retried = api.postWith(path, "", "Idempotency-Key", key);
        assertThat(retried.status()).as(retried.body().toString()).isEqualTo(200);
        assertThat(retried.body().get("runId").asString()).isEqualTo(g + "-p-flaky-r1");
        assertThat(retried.header("Idempotent-Replayed")).isEqualTo("true");
        assertField(api.postWith(path, "", "Idempotency-Key", "not a key"), 400, "Idempotency-Key");
        assertThat(SwaleClient.node(after, "flaky").get("record").get("runId").asString()).isEqualTo(g + "-p-flaky-r1");

        // the same letter again (a second click, no key): refused, the node not rerun once more
        SwaleClient.Response again = api.postJson(path, "");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body().get("outcome").asString()).isEqualTo("already_rerun");
        assertThat(again.body().get("runId").asString()).isEqualTo(g + "-p-flaky-r1");
        assertThat(api.get("/api/v1/graphs/" + g + "/runs/p").body().get("state").asString()).isEqualTo("failed");
        assertThat(SwaleClient.node(api.get("/api/v1/graphs/" + g + "/runs/p").body(), "flaky").get("record")
                .get("runId").asString()).isEqualTo(g + "-p-flaky-r1");

        JsonNode channels = api.get("/api/v1/dead-letters").body();
        assertThat(channels.toString()).contains("\"channel\":\"pool.default\"").contains("\"channel\":\"events\"");
    }

    @Test
    void deadLetterErrorsNameTheField() {
        assertField(api.get("/api/v1/dead-letters/nosuch"), 400, "channel");
        assertField(api.get("/api/v1/dead-letters/pool.default?limit=0"), 400, "limit");
        assertField(api.get("/api/v1/dead-letters/pool.default?limit=lots"), 400, "limit");
        assertThat(api.get("/api/v1/dead-letters/pool.nosuchpool").status()).isEqualTo(404);
        assertField(api.postJson("/api/v1/dead-letters/events/0-0/rerun", ""), 400, "channel");
        assertField(api.postJson("/api/v1/dead-letters/pool.default/zero/rerun", ""), 400, "letter");
        assertThat(api.postJson("/api/v1/dead-letters/pool.default/0-999999999/rerun", "").status()).isEqualTo(404);
    }

    @Test
    void graphListCountsRunsAndRunsListIsValidated() {
        String g = unique("counts");
        api.publish(Graphs.daily(g, true));
        api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"20260901\",\"20260902\"]}");
        awaitSettled(g, "20260901");
        awaitSettled(g, "20260902");

        // the run counts may be up to a second old (docs/operations.md); the rest is read anew
        JsonNode mine = api.get("/api/v1/graphs").body().valueStream()
                .filter(x -> x.get("name").asString().equals(g)).findFirst().orElseThrow();
        assertThat(mine.get("latest").toString()).isEqualTo("{\"partition\":\"20260902\",\"state\":\"failed\"}");
        assertThat(mine.get("partitioning").asString()).isEqualTo("daily");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(api.get("/api/v1/graphs").body()
                .valueStream().filter(x -> x.get("name").asString().equals(g)).findFirst().orElseThrow()
                .get("runs").toString()).isEqualTo("{\"active\":0,\"complete\":0,\"failed\":2,\"cancelled\":0}"));

        JsonNode page = api.get("/api/v1/graphs/" + g + "/runs?from=20260902&limit=5").body();
        assertThat(page.size()).isEqualTo(1);
        assertThat(page.get(0).get("partition").asString()).isEqualTo("20260902");
        assertThat(api.get("/api/v1/graphs/" + g + "/runs?limit=1").body().get(0).get("partition").asString())
                .isEqualTo("20260901");
        assertField(api.get("/api/v1/graphs/" + g + "/runs?limit=0"), 400, "limit");
        assertField(api.get("/api/v1/graphs/" + g + "/runs?limit=x"), 400, "limit");
        assertField(api.get("/api/v1/graphs/" + g + "/runs?from=2026-09-01"), 400, "from");
        assertField(api.get("/api/v1/graphs/Bad/runs"), 400, "graph");
        assertThat(api.get("/api/v1/graphs/nosuchgraph/runs").status()).isEqualTo(404);
        assertField(api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":\"20260901\"}"), 400, "partitions");
        assertField(api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/Bad/rerun", ""), 400, "node");
        assertField(api.postJson("/api/v1/graphs/" + g + "/runs/bad-key/cancel", ""), 400, "partition");
    }
}
