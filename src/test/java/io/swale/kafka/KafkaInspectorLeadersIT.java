package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The lost-send repair's question, and the topics of a pool made by the bounded admin, on a real broker. */
class KafkaInspectorLeadersIT {
    static OwnBroker kafka;
    static KafkaInspector inspector;

    @BeforeAll
    static void broker() {
        kafka = new OwnBroker("swale.inspectorleaders.brokers");
        inspector = new KafkaInspector(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap()),
                Duration.ofSeconds(5));
    }

    @AfterAll
    static void stopBroker() {
        inspector.close();
        kafka.close();
    }

    @Test
    void topicsAreServedOnceEachOfThemExistsWithItsLeaders() {
        SwaleTopics topics = new SwaleTopics("leaders.");
        PoolTopics pools = new PoolTopics(PoolTopics.boundedAdmin(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap()), Duration.ofSeconds(10)),
                topics, 3, (short) 1);
        assertThat(inspector.leadersOf(Set.of(topics.pool("a")))).as("not made yet").isFalse();

        pools.ensure("a");
        pools.ensure("b");

        // a topic just made may take a moment to be described everywhere
        await().untilAsserted(() -> assertThat(inspector.leadersOf(Set.of(topics.pool("a"), topics.pool("b"),
                SwaleTopics.deadLetter(topics.pool("a"))))).isTrue());
        assertThat(inspector.leadersOf(Set.of(topics.pool("a"), topics.pool("never-made"))))
                .as("one missing topic among served ones").isFalse();
        assertThat(inspector.leadersOf(Set.of())).as("the cluster answers").isTrue();
    }
}
