package io.swale.it;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
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
        "swale.scheduler.delayed-poll=100ms",
        // low for every test: a task longer than this must cause no rebalance (the pool listener never holds a record)
        "spring.kafka.consumer.properties.max.poll.interval.ms=4000",
        "swale.pools.solo.slots=1",
        // a configured pool no replica of this context serves: its dispatches wait, so its group lags
        "swale.pools.unserved.slots=1",
        "swale.worker.pools=default,solo"})
abstract class IntegrationTest {
    @LocalServerPort
    int port;

    SwaleClient api;

    /** Files the tests' waiting shell tasks poll for, opened after each test whatever its outcome. */
    @RegisterExtension
    final ReleaseGates gates = new ReleaseGates();

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

    /** The attempt history the run view shows for a node. */
    JsonNode attempts(String graph, String partition, String node) {
        return SwaleClient.node(api.run(graph, partition), node).get("attempts");
    }

    /** A graph name unique to one test, so tests share the store without seeing each other. */
    static String unique(String base) {
        return base + "_" + Long.toString(System.nanoTime(), 36);
    }
}
