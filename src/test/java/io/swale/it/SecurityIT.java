package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;

/**
 * Outside the local profile (embedded Kafka and Redis kept, profile not added): mutating endpoints and
 * non-health Actuator endpoints answer 401 without the bearer token and succeed with it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.embedded=true", "swale.local-profile=false", "swale.security.token=s3cret-token",
        "swale.examples=", "spring.profiles.active=prod"})
class SecurityIT {
    private static final String[] BEARER = {"Authorization", "Bearer s3cret-token"};
    private static final String[] WRONG = {"Authorization", "Bearer wrong"};

    @LocalServerPort
    int port;

    @Autowired
    Environment env;

    @Test
    void mutatingAndActuatorEndpointsNeedTheToken() {
        assertThat(Arrays.asList(env.getActiveProfiles())).doesNotContain("local");
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("secure");

        SwaleClient.Response anonymous = api.post("/api/v1/definitions", "application/toml", Graphs.chain(g, 1));
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.contentType()).startsWith("application/problem+json");
        assertThat(anonymous.header("WWW-Authenticate")).startsWith("Bearer");
        assertThat(anonymous.body().get("detail").asString()).contains("needs Authorization");
        SwaleClient.Response wrong = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p\"]}", WRONG);
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.body().get("detail").asString()).as("a stale token is named as refused, not as missing")
                .contains("was refused");
        assertThat(wrong.header("WWW-Authenticate")).contains("invalid_token");
        assertThat(api.postWith("/api/v1/graphs/" + g + "/runs/p/cancel", "").status()).isEqualTo(401);

        SwaleClient.Response published = publish(api, g);
        assertThat(published.status()).isEqualTo(201);
        assertThat(api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p\"]}", BEARER).status())
                .isEqualTo(200);

        assertThat(api.get("/api/v1/graphs").status()).isEqualTo(200);
        // reads are open, but a definition's source may hold credentials: it needs the token
        SwaleClient.Response source = api.get("/api/v1/dashboard/graphs/" + g + "/definition");
        assertThat(source.status()).isEqualTo(401);
        assertThat(source.body().toString()).doesNotContain("noop");
        assertThat(api.getWith("/api/v1/dashboard/graphs/" + g + "/definition", WRONG).status()).isEqualTo(401);
        SwaleClient.Response withToken = api.getWith("/api/v1/dashboard/graphs/" + g + "/definition", BEARER);
        assertThat(withToken.status()).isEqualTo(200);
        assertThat(withToken.body().path("source").path("text").asString()).isEqualTo(Graphs.chain(g, 1));
        assertThat(api.get("/api/v1/graphs/" + g).status()).isEqualTo(200);
        assertThat(api.get("/v3/api-docs").status()).isEqualTo(200);
        assertThat(api.get("/actuator/health").status()).isEqualTo(200);
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(200);
        // the same groups on the main port's additional paths, as Spring's probe documentation points them
        assertThat(api.get("/livez").status()).isEqualTo(200);
        assertThat(api.get("/readyz").status()).isEqualTo(200);
        assertThat(api.get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(api.get("/actuator/swale").status()).isEqualTo(401);
        assertThat(api.get("/actuator/info").status()).isEqualTo(401);
        assertThat(api.getWith("/actuator/prometheus", WRONG).status()).isEqualTo(401);
        assertThat(api.getWith("/actuator/prometheus", BEARER).status()).isEqualTo(200);
        assertThat(api.getWith("/actuator/swale", BEARER).status()).isEqualTo(200);
    }

    private static SwaleClient.Response publish(SwaleClient api, String g) {
        // the body is TOML; a content type other than YAML reads as TOML
        return api.postWith("/api/v1/definitions", Graphs.chain(g, 1), BEARER);
    }
}
