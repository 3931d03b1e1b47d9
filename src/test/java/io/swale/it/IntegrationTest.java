package io.swale.it;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Base of the integration tests: the whole application on an embedded KRaft broker and a real
 * redis-server (started by local mode because no address is configured), shared by every test class
 * that uses these properties.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=",
        "swale.worker.cancel-poll=200ms",
        "swale.scheduler.delayed-poll=100ms"})
abstract class IntegrationTest {
    @LocalServerPort
    int port;

    SwaleClient api;

    @BeforeEach
    void client() {
        api = new SwaleClient(port);
    }

    /** Waits until the run leaves `active` and returns its view. */
    JsonNode awaitSettled(String graph, String partition) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> !api.run(graph, partition).get("state").asString().equals("active"));
        return api.run(graph, partition);
    }

    /** A graph name unique to one test, so tests share the store without seeing each other. */
    static String unique(String base) {
        return base + "_" + Long.toString(System.nanoTime(), 36);
    }
}
