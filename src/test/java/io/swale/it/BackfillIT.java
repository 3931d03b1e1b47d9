package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Backfill over a daily range: dry run, missing partitions, failed runs, and every invalid field. */
class BackfillIT extends IntegrationTest {

    private SwaleClient.Response backfill(String g, String body) {
        return api.postJson("/api/v1/graphs/" + g + "/backfill", body);
    }

    @Test
    void dryRunListsThenBackfillStartsOnlyMissingPartitions() {
        String g = unique("bf");
        api.publish(Graphs.daily(g, false));
        api.start(g, "20260902");
        awaitSettled(g, "20260902");

        JsonNode dry = backfill(g, "{\"from\":\"20260901\",\"to\":\"20260903\",\"dryRun\":true}").body();
        assertThat(dry.get("plan").toString()).isEqualTo("[{\"partition\":\"20260901\",\"action\":\"start\"},"
                + "{\"partition\":\"20260902\",\"action\":\"skip\",\"state\":\"complete\"},"
                + "{\"partition\":\"20260903\",\"action\":\"start\"}]");
        assertThat(dry.get("started").size()).isZero();
        assertThat(api.get("/api/v1/graphs/" + g + "/runs").body().size()).isEqualTo(1);

        JsonNode done = backfill(g, "{\"from\":\"20260901\",\"to\":\"20260903\"}").body();
        assertThat(done.get("mode").asString()).isEqualTo("missing");
        assertThat(done.get("started").toString()).isEqualTo("[\"20260901\",\"20260903\"]");
        awaitSettled(g, "20260901");
        awaitSettled(g, "20260903");
        assertThat(api.get("/api/v1/graphs/" + g + "/runs").body().size()).isEqualTo(3);
    }

    @Test
    void failedModeRerunsTheFailedNodesOfFailedRuns() {
        String g = unique("bffail");
        api.publish(Graphs.daily(g, true));
        backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\"}");
        JsonNode failed = awaitSettled(g, "20260901");
        assertThat(failed.get("state").asString()).isEqualTo("failed");

        JsonNode missingOnly = backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\",\"dryRun\":true}").body();
        assertThat(missingOnly.get("plan").get(0).get("action").asString()).isEqualTo("skip");
        JsonNode plan = backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\",\"mode\":\"failed\",\"dryRun\":true}").body();
        assertThat(plan.get("plan").toString())
                .isEqualTo("[{\"partition\":\"20260901\",\"action\":\"rerun\",\"nodes\":[\"only\"]}]");

        JsonNode done = backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\",\"mode\":\"failed\"}").body();
        assertThat(done.get("reruns").get(0).get("outcome").toString())
                .isEqualTo("{\"kind\":\"rerun\",\"runId\":\"" + g + "-20260901-only-r1\"}");
        await().atMost(Duration.ofSeconds(30)).until(() -> SwaleClient.node(api.run(g, "20260901"), "only")
                .get("record").get("rerun").asInt() == 1);
    }

    @Test
    void everyInvalidFieldIsNamed() {
        String g = unique("bferr");
        api.publish(Graphs.daily(g, false));
        String none = unique("bfnone");
        api.publish(Graphs.chain(none, 1));

        assertField(backfill(g, "{\"from\":\"2026-09-01\",\"to\":\"20260903\"}"), 400, "from");
        assertField(backfill(g, "{\"to\":\"20260903\"}"), 400, "from");
        assertField(backfill(g, "{\"from\":\"20260901\",\"to\":\"20260231\"}"), 400, "to");
        assertField(backfill(g, "{\"from\":\"20260903\",\"to\":\"20260901\"}"), 400, "to");
        assertField(backfill(g, "{\"from\":\"20000101\",\"to\":\"20260901\"}"), 400, "to");
        assertField(backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\",\"mode\":\"all\"}"), 400, "mode");
        assertField(backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\",\"dryRun\":\"maybe\"}"), 400, "dryRun");
        assertField(backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\",\"extra\":1}"), 400, "extra");
        // in JSON a partition is a plain string (spec §3), and a flag a boolean; was: coerced, and three runs started
        SwaleClient.Response number = backfill(g, "{\"from\":20260901,\"to\":\"20260903\"}");
        assertField(number, 400, "from");
        assertThat(number.body().get("detail").asString()).as("Jackson's advice to programmers left out")
                .doesNotContain("CoercionConfig");
        assertField(backfill(g, "{\"from\":\"20260901\",\"to\":20260903}"), 400, "to");
        assertField(backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\",\"dryRun\":1}"), 400, "dryRun");
        assertField(backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\",\"dryRun\":\"true\"}"), 400, "dryRun");
        assertField(backfill(g, "{\"from\":\"20260901\",\"to\":\"20260901\",\"mode\":true}"), 400, "mode");
        assertField(backfill(g, ""), 400, "body");
        assertField(backfill(none, "{\"from\":\"20260901\",\"to\":\"20260901\"}"), 400, "graph");
        assertField(backfill("Bad", "{\"from\":\"20260901\",\"to\":\"20260901\"}"), 400, "graph");
        assertThat(backfill("nosuchgraph", "{\"from\":\"20260901\",\"to\":\"20260901\"}").status()).isEqualTo(404);
        assertThat(api.get("/api/v1/graphs/" + g + "/runs").body().size()).isZero();
    }

    static void assertField(SwaleClient.Response r, int status, String field) {
        assertThat(r.status()).as(String.valueOf(r.body())).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.body().get("field").asString()).isEqualTo(field);
    }
}
