package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** Bad input gets a clear 4xx problem+json, refused before it costs anything, and stores nothing. */
class LimitsIT extends IntegrationTest {
    private static final String PROBLEM = "application/problem+json";

    private RawHttp.Answer raw(String method, String target, String contentType, String body) {
        return RawHttp.send(port, RawHttp.request(method, target, contentType, body.getBytes(StandardCharsets.UTF_8)),
                10_000);
    }

    @Test
    void aYamlAliasBombIsRefusedAtOnce() {
        StringBuilder y = new StringBuilder("graph:\n  name: bomb\nx: &a [");
        for (int i = 0; i < 6000; i++) {
            y.append(i == 0 ? "" : ",").append('1');
        }
        y.append("]\nnode:\n- name: a\n  operator: noop\n  params:\n    l: [");
        for (int i = 0; i < 6000; i++) {
            y.append(i == 0 ? "" : ",").append("*a");
        }
        y.append("]\n");
        RawHttp.Answer a = raw("POST", "/api/v1/definitions/validate", "application/yaml", y.toString());
        assertThat(a.status()).isEqualTo(422);
        assertThat(a.contentType()).startsWith(PROBLEM);
        assertThat(a.body()).contains("swale.limits.yaml-");
        assertThat(a.millis()).isLessThan(2_000);
    }

    @Test
    void deepDottedKeysAreAFaultNotA500() {
        String keys = String.join(".", Collections.nCopies(5_000, "k"));
        SwaleClient.Response r = api.post("/api/v1/definitions/validate", "application/toml",
                "[graph]\nname = \"deep\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\n[node.params]\n" + keys + " = \"x\"\n");
        assertThat(r.status()).isEqualTo(422);
        assertThat(r.body().get("problems").get(0).get("kind").asString()).isEqualTo("TooDeep");
    }

    @Test
    void emojiInYamlIsNeverA500() {
        for (String value : List.of("\"" + "😀".repeat(1100) + "\"", "😀".repeat(1100), "'" + "😀".repeat(1100) + "'")) {
            SwaleClient.Response r = api.post("/api/v1/definitions/validate", "application/yaml",
                    "graph:\n  name: emoji\nnode:\n- name: a\n  operator: noop\n  params:\n    x: " + value + "\n");
            assertThat(r.status()).isEqualTo(200);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"*/*", "application/*", "*/json"})
    void aWildcardContentTypeIsNeverA500(String contentType) {
        RawHttp.Answer a = raw("POST", "/api/v1/graphs/no_such_graph/runs", contentType, "{\"partitions\":[\"p\"]}");
        assertThat(a.status()).isIn(404, 415);
        assertThat(a.contentType()).startsWith(PROBLEM);
    }

    /**
     * Issue 13: 600-deep dotted parameter keys published, then the run failed to submit on every reconciler pass.
     * Publish refuses them, naming where and the limit, and stores nothing.
     */
    @Test
    void aDefinitionTooDeepToRunIsRefusedAtPublishAndNothingIsStored() {
        String g = unique("deep_publish");
        String keys = String.join(".", Collections.nCopies(600, "k"));
        SwaleClient.Response r = api.publish("[graph]\nname = \"" + g + "\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\n"
                + "[node.params]\n" + keys + " = \"x\"\n");
        assertThat(r.status()).isEqualTo(422);
        JsonNode problem = r.body().get("problems").get(0);
        assertThat(problem.get("kind").asString()).isEqualTo("TooDeep");
        assertThat(problem.get("message").asString()).contains("node.0.params.k").contains("more than 32")
                .contains("swale.limits.depth");
        assertThat(api.get("/api/v1/graphs/" + g).status()).isEqualTo(404);
    }

    /** The pool names a Kafka topic: too long a name was stored, then topic creation failed for good. */
    @Test
    void aPoolThatCannotNameATopicIsAFaultAndNothingIsStored() {
        String g = unique("longpool");
        SwaleClient.Response r = api.publish("[graph]\nname = \"" + g + "\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\n"
                + "pool = \"" + "p".repeat(240) + "\"\n");
        assertThat(r.status()).isEqualTo(422);
        assertThat(r.body().get("problems").get(0).get("kind").asString()).isEqualTo("InvalidPoolName");
        assertThat(api.get("/api/v1/graphs/" + g).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/dead-letters").status()).isEqualTo(200);
    }

    @Test
    void numbersAreNotPartitionKeys() {
        String g = unique("numkeys");
        assertThat(api.publish(Graphs.chain(g, 1)).status()).isEqualTo(201);
        SwaleClient.Response r = api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[1,\"a\"]}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().get("field").asString()).isEqualTo("partitions[0]");
        assertThat(api.get("/api/v1/graphs/" + g + "/runs/1").status()).isEqualTo(404);
    }

    @Test
    void aStartRequestHasAtMostTheConfiguredPartitions() {
        String g = unique("manykeys");
        assertThat(api.publish(Graphs.chain(g, 1)).status()).isEqualTo(201);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 5_001; i++) {
            keys.add("\"p" + i + "\"");
        }
        SwaleClient.Response r = api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[" + String.join(",", keys) + "]}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().get("field").asString()).isEqualTo("partitions");
        assertThat(r.body().get("detail").asString()).contains("swale.limits.start-partitions");
    }

    @Test
    void aBackfillRangeHasAtMostTheConfiguredPartitionsToo() {
        String g = unique("longrange");
        assertThat(api.publish(Graphs.daily(g, false)).status()).isEqualTo(201);
        // 5,001 days
        SwaleClient.Response r = api.postJson("/api/v1/graphs/" + g + "/backfill",
                "{\"from\":\"20000101\",\"to\":\"20130909\",\"dryRun\":true}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().get("field").asString()).isEqualTo("to");
        assertThat(r.body().get("detail").asString()).contains("at most 5000").contains("swale.limits.start-partitions");
        assertThat(api.postJson("/api/v1/graphs/" + g + "/backfill",
                "{\"from\":\"20000101\",\"to\":\"20130908\",\"dryRun\":true}").status()).isEqualTo(200);
    }

    @Test
    void aBodyOverTheLimitIs413() {
        RawHttp.Answer a = raw("POST", "/api/v1/definitions/validate", "application/toml",
                "# " + "x".repeat(1_100_000) + "\n");
        assertThat(a.status()).isEqualTo(413);
        assertThat(a.contentType()).startsWith(PROBLEM);
        assertThat(a.body()).contains("swale.limits.body-size");
    }

    /** Found by ApiFuzzIT: a body parsed by a servlet filter that no endpoint reads answered 500. */
    @ParameterizedTest
    @ValueSource(strings = {"PUT application/x-www-form-urlencoded", "DELETE application/x-www-form-urlencoded",
            "POST multipart/form-data", "GET multipart/form-data; boundary=x"})
    void formAndMultipartBodiesAreNeverA500(String methodAndType) {
        String[] m = methodAndType.split(" ", 2);
        RawHttp.Answer a = raw(m[0], "/api/v1/definitions", m[1], "%");
        assertThat(a.status()).isBetween(400, 499);
        assertThat(a.contentType()).startsWith(PROBLEM);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/graphs/a%2Fb", "/api/v1/graphs/a%00b", "/api/v1/graphs/\u00ff\u0001", "/a b c",
            "/api/v1/graphs/%zz", "/api/v1/graphs/;%", "/api/v1/graphs/a;b=%zz/runs", "LONG"})
    void theContainersOwnRefusalsAreProblemJson(String target) {
        String t = target.equals("LONG") ? "/api/v1/graphs/" + "a".repeat(20_000) : target;
        RawHttp.Answer a = RawHttp.send(port, RawHttp.request("GET", t, null, new byte[0]), 10_000);
        assertThat(a.status()).isBetween(400, 499);
        assertThat(a.contentType()).startsWith(PROBLEM);
        assertThat(a.body()).contains("\"status\":" + a.status());
    }

    /** A raw CR LF inside a request line leaves a line with no version, which Tomcat serves as HTTP/0.9. */
    @Test
    void aRequestLineWithoutAVersionIsRefusedNotServed() {
        byte[] split = "GET /api/v1/graphs\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        RawHttp.Answer a = RawHttp.send(port, split, 10_000);
        // HTTP/0.9 has no status line: what comes back is the body alone, and it must be the refusal
        assertThat(a.body()).contains("\"status\":400").contains("HTTP/0.9").doesNotContain("\"name\"");
    }
}
