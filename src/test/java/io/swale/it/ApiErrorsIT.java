package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Bad input gets a clear error and writes nothing. */
class ApiErrorsIT extends IntegrationTest {

    @Test
    void invalidDefinitionGets422NamingEveryFault() {
        String toml = """
                [graph]
                name = "Bad-Name"
                catchup = "7w"
                [[node]]
                name = "a"
                produces = "x"
                after = ["b"]
                operator = "nope"
                [[node]]
                name = "a"
                operator = "noop"
                """;
        SwaleClient.Response r = api.publish(toml);

        assertThat(r.status()).isEqualTo(422);
        assertThat(r.contentType()).startsWith("application/problem+json");
        List<String> kinds = new ArrayList<>();
        r.body().get("problems").forEach(p -> kinds.add(p.get("kind").asString()));
        assertThat(kinds).containsExactly("InvalidCatchup", "AssetNodeAfter", "InvalidGraphName", "DuplicateNode",
                "UnknownOperator");
        assertThat(api.get("/api/v1/graphs/bad_name").status()).isEqualTo(404);
    }

    @Test
    void malformedTomlGets422WithTheParserExplanation() {
        SwaleClient.Response r = api.publish("[graph\nname=");
        assertThat(r.status()).isEqualTo(422);
        assertThat(r.body().get("problems").get(0).get("kind").asString()).isEqualTo("ParseError");
        // nothing at all is an invalid definition too, answered as one
        SwaleClient.Response empty = api.publish("");
        assertThat(empty.status()).isEqualTo(422);
        assertThat(empty.body().get("problems").get(0).get("kind").asString()).isEqualTo("ParseError");
        assertThat(empty.body().get("problems").get(0).get("message").asString()).contains("graph");
    }

    @Test
    void validateAnswersNodesAndEdgesAndStoresNothing() {
        String g = unique("validate");
        SwaleClient.Response r = api.post("/api/v1/definitions/validate", "application/toml", Graphs.chain(g, 3));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().get("nodes").asInt()).isEqualTo(3);
        assertThat(r.body().get("edges").asInt()).isEqualTo(2);
        assertThat(api.get("/api/v1/graphs/" + g).status()).isEqualTo(404);
    }

    @Test
    void yamlDefinitionsArePublished() {
        String g = unique("yaml");
        String yaml = """
                graph:
                  name: %1$s
                node:
                  - name: only
                    produces: %1$s_only
                    operator: noop
                    params: {answer: 42}
                """.formatted(g);
        SwaleClient.Response r = api.post("/api/v1/definitions", "application/yaml", yaml);
        assertThat(r.status()).isEqualTo(201);
        assertThat(r.body().get("changed").asBoolean()).isTrue();
        assertThat(api.post("/api/v1/definitions", "application/yaml", yaml).body().get("changed").asBoolean()).isFalse();
        api.start(g, "p");
        assertThat(awaitSettled(g, "p").get("nodes").get(0).get("record").get("output").get("answer").asInt())
                .isEqualTo(42);
    }

    @Test
    void unknownGraphRunOrNodeGets404() {
        String g = unique("known");
        api.publish(Graphs.chain(g, 1));
        assertThat(api.get("/api/v1/graphs/nosuchgraph").status()).isEqualTo(404);
        assertThat(api.start("nosuchgraph", "p").status()).isEqualTo(404);
        assertThat(api.get("/api/v1/graphs/" + g + "/runs/nosuch").status()).isEqualTo(404);
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs/nosuch/cancel", "").status()).isEqualTo(404);
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs/nosuch/nodes/n0/rerun", "").status()).isEqualTo(404);
        api.start(g, "p");
        awaitSettled(g, "p");
        SwaleClient.Response unknownNode = api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/zz/rerun", "");
        assertThat(unknownNode.status()).isEqualTo(404);
        assertThat(unknownNode.body().get("detail").asString()).contains("zz");
    }

    @Test
    void refusedRequestsWriteNothing() {
        String g = unique("refuse");
        api.publish(Graphs.failing(g, "/nonexistent/never"));
        SwaleClient.Response badPartition = api.start(g, "2026-09-15");
        assertThat(badPartition.status()).isEqualTo(400);
        // the field names the key in the body (was `partition`, a field no start request has)
        assertThat(badPartition.body().get("field").asString()).isEqualTo("partitions[0]");
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p\",\"2026-09-15\"]}").body()
                .get("field").asString()).isEqualTo("partitions[1]");
        assertThat(api.get("/api/v1/graphs/" + g + "/runs").body().size()).isZero();
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[]}").status()).isEqualTo(400);
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs", "{not json").status()).isEqualTo(400);

        api.start(g, "p");
        JsonNode failed = awaitSettled(g, "p");
        // after_flaky has no record: no_record; rerunning it is refused and changes nothing
        SwaleClient.Response noRecord = api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/after_flaky/rerun", "");
        assertThat(noRecord.status()).isEqualTo(409);
        assertThat(noRecord.body().get("outcome").asString()).isEqualTo("no_record");
        assertThat(api.run(g, "p")).isEqualTo(failed);
        // always succeeded after flaky failed; its rule is all_done so it is ready: rerun submits
        SwaleClient.Response always = api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/always/rerun", "");
        assertThat(always.status()).isEqualTo(200);
        awaitSettled(g, "p");
    }

    @Test
    void rerunWhoseTriggerRuleIsNotMetIsNotReady() {
        String g = unique("notready");
        api.publish(Graphs.failing(g, "/nonexistent/never"));
        api.start(g, "p");
        awaitSettled(g, "p");
        // flaky failed; after_flaky has no record. Rerun flaky r1 (fails again), then the chain stays blocked.
        SwaleClient.Response r = api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/flaky/rerun", "");
        assertThat(r.status()).isEqualTo(200);
        JsonNode settled = awaitSettled(g, "p");
        assertThat(SwaleClient.node(settled, "flaky").get("record").get("rerun").asInt()).isEqualTo(1);
    }
}
