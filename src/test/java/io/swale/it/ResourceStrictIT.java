package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Strict mode (swale.resources.strict=true, docs/resources.md): a definition that leases a resource with no
 * declared capacity is refused at validate and publish, naming the node and the resource, and nothing is
 * stored; once the resource is declared (configuration or PUT) the same definition publishes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=", "swale.resources.strict=true", "swale.resources.capacities.configured=3"})
class ResourceStrictIT {
    @LocalServerPort
    int port;

    @Test
    void anUndeclaredResourceIsRefusedWithItsNodeAndNothingIsStored() {
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("strict");
        String res = IntegrationTest.unique("undeclared");
        String toml = """
                [graph]
                name = "%s"
                [[node]]
                name = "load"
                operator = "noop"
                leases = ["configured", "%s", "agent:{{ partition }}"]
                """.formatted(g, res);
        SwaleClient.Response validate = api.post("/api/v1/definitions/validate", "application/toml", toml);
        assertThat(validate.status()).isEqualTo(422);
        SwaleClient.Response publish = api.publish(toml);
        assertThat(publish.status()).isEqualTo(422);
        assertThat(publish.contentType()).startsWith("application/problem+json");
        JsonNode problems = publish.body().get("problems");
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0).get("kind").asString()).isEqualTo("UndeclaredResource");
        assertThat(problems.get(0).get("message").asString()).contains("node `load`", "`" + res + "`",
                "no declared capacity");
        assertThat(api.get("/api/v1/graphs/" + g).status()).as("nothing stored").isEqualTo(404);
        assertThat(api.get("/api/v1/resources/configured").body().get("capacity").asInt())
                .as("the configured capacity was written at start-up").isEqualTo(3);

        assertThat(api.put("/api/v1/resources/" + res, "{\"capacity\": 1}").status()).isEqualTo(200);
        assertThat(api.publish(toml).status()).isEqualTo(201);
    }

    /** docs/resources.md: all faults at once. Was: the undeclared resource in a second 422, once the others were mended. */
    @Test
    void anUndeclaredResourceIsReportedWithTheDefinitionsOtherFaults() {
        SwaleClient api = new SwaleClient(port);
        String res = IntegrationTest.unique("undeclared");
        String toml = """
                [graph]
                name = "%s"
                [[node]]
                name = "load"
                operator = "noop"
                after = ["missing"]
                leases = ["%s"]
                """.formatted(IntegrationTest.unique("strict"), res);
        for (SwaleClient.Response r : java.util.List.of(api.post("/api/v1/definitions/validate", "application/toml",
                toml), api.publish(toml))) {
            assertThat(r.status()).isEqualTo(422);
            assertThat(r.body().get("problems").valueStream().map(p -> p.get("kind").asString()))
                    .contains("UndeclaredResource").hasSize(2);
        }
    }
}
