package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.kafka.SwaleTopics;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaAdmin;
import tools.jackson.databind.JsonNode;

/** The http operator against a loopback server: transient statuses retry with backoff, permanent ones dead-letter. */
class HttpRetryIT extends IntegrationTest {
    static final ScriptedHttpServer server = new ScriptedHttpServer();

    @Autowired
    KafkaAdmin admin;

    @Autowired
    SwaleTopics topics;

    @Autowired
    io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry breakers;

    @AfterAll
    static void stop() {
        server.close();
    }

    static String httpGraph(String g, String url, int retries) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "call"
                produces = "%1$s_call"
                operator = "http"
                retries = %3$d
                [node.params]
                url = "%2$s"
                timeout = "5s"
                """.formatted(g, url, retries);
    }

    @Test
    void twoServiceUnavailableThenOkCompletesOnTheThirdAttempt() {
        String g = unique("http503");
        String path = "/flaky/" + g;
        server.script(path, new ScriptedHttpServer.Answer(503, "busy"), new ScriptedHttpServer.Answer(503, "busy"),
                new ScriptedHttpServer.Answer(200, "{\"ok\": true}"));
        api.publish(httpGraph(g, server.url(path), 2));
        long t0 = System.nanoTime();
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p");
        long ms = (System.nanoTime() - t0) / 1_000_000;

        assertThat(run.get("state").asString()).isEqualTo("complete");
        JsonNode record = SwaleClient.node(run, "call").get("record");
        assertThat(record.get("output").get("status").asInt()).isEqualTo(200);
        assertThat(record.get("output").get("body").get("ok").asBoolean()).isTrue();
        JsonNode attempts = SwaleClient.node(run, "call").get("attempts");
        assertThat(attempts).hasSize(3);
        assertThat(attempts.get(0).get("attempt").asInt()).isEqualTo(1);
        assertThat(attempts.get(0).get("outcome").asString()).isEqualTo("retry");
        assertThat(attempts.get(0).get("error").asString()).contains("GET " + server.url(path)).contains("503")
                .contains("busy");
        assertThat(attempts.get(1).get("outcome").asString()).isEqualTo("retry");
        assertThat(attempts.get(2).get("attempt").asInt()).isEqualTo(3);
        assertThat(attempts.get(2).get("outcome").asString()).isEqualTo("succeeded");
        // backoff 1 s then 2 s (plus up to 20 % jitter) between the attempts
        long gap1 = attempts.get(1).get("startedMs").asLong() - attempts.get(0).get("endedMs").asLong();
        long gap2 = attempts.get(2).get("startedMs").asLong() - attempts.get(1).get("endedMs").asLong();
        assertThat(gap1).isBetween(1_000L, 2_500L);
        assertThat(gap2).isBetween(2_000L, 3_500L);
        assertThat(server.hits(path)).isEqualTo(3);
        // the calls went through the circuit breaker of their host (resilience4j's Spring Boot 4 registry)
        String host = server.url("").replace("http://", "");
        assertThat(breakers.find("http:" + host)).isPresent();
        System.out.printf("[figure] http 503,503,200: complete in %d ms, backoff gaps %d ms and %d ms%n", ms, gap1, gap2);
    }

    @Test
    void notFoundFailsAtOnceAndDeadLettersOneCopyWithItsHistory() {
        String g = unique("http404");
        String path = "/missing/" + g;
        server.script(path, new ScriptedHttpServer.Answer(404, "nothing here"));
        api.publish(httpGraph(g, server.url(path), 3));
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p");

        assertThat(run.get("state").asString()).isEqualTo("failed");
        JsonNode record = SwaleClient.node(run, "call").get("record");
        assertThat(record.get("status").asString()).isEqualTo("failed");
        assertThat(record.get("error").asString()).contains("GET " + server.url(path)).contains("404")
                .contains("nothing here");
        JsonNode attempts = SwaleClient.node(run, "call").get("attempts");
        assertThat(attempts).hasSize(1);
        assertThat(attempts.get(0).get("outcome").asString()).isEqualTo("failed");
        assertThat(server.hits(path)).isEqualTo(1);

        String runId = g + "-p-call-r0";
        String dlt = SwaleTopics.deadLetter(topics.pool("default"));
        await().atMost(Duration.ofSeconds(15)).until(() -> !DeadLetterTopic.read(
                admin.getConfigurationProperties(), dlt, runId).isEmpty());
        List<JsonNode> letters = DeadLetterTopic.read(admin.getConfigurationProperties(), dlt, runId);
        assertThat(letters).hasSize(1);
        JsonNode letter = letters.getFirst();
        assertThat(letter.get("attempts").asInt()).isEqualTo(1);
        assertThat(letter.get("max_attempts").asInt()).isEqualTo(4);
        assertThat(letter.get("last_error").asString()).contains("404");
        assertThat(letter.get("history")).hasSize(1);
        assertThat(letter.get("history").get(0).get("outcome").asString()).isEqualTo("failed");
    }
}
