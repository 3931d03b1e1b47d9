package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;
import tools.jackson.databind.JsonNode;

/**
 * The same graph run against a Kafka and a Redis in containers, as an installation would use them.
 * Runs where a Docker engine exists and is skipped elsewhere.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=", "swale.embedded=false"})
class ContainersIT {
    @Container
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.1.1");

    @Container
    static final GenericContainer<?> REDIS = new GenericContainer<>("redis:7.4").withExposedPorts(6379);

    @DynamicPropertySource
    static void addresses(DynamicPropertyRegistry registry) {
        registry.add("spring.kafka.bootstrap-servers", KAFKA::getBootstrapServers);
        registry.add("spring.data.redis.host", REDIS::getHost);
        registry.add("spring.data.redis.port", () -> REDIS.getMappedPort(6379));
    }

    @LocalServerPort
    int port;

    @Test
    void aGraphRunCompletesOnContainerisedKafkaAndRedis() {
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("containers");
        assertThat(api.publish(Graphs.chain(g, 3)).status()).isEqualTo(201);
        api.start(g, "p");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                .until(() -> api.run(g, "p").get("state").asString().equals("complete"));
        JsonNode run = api.run(g, "p");
        assertThat(SwaleClient.node(run, "n2").get("record").get("status").asString()).isEqualTo("succeeded");
    }
}
