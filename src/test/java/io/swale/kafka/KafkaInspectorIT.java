package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On a real broker: the lost-send repair's question with the topics of a pool made by the bounded admin, and the
 * lags and record counts of several channels from one set of questions.
 */
class KafkaInspectorIT {
    static OwnBroker kafka;
    static KafkaInspector inspector;

    @BeforeAll
    static void broker() {
        kafka = new OwnBroker("swale.inspector.brokers");
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

    @Test
    void eachChannelsLagAndEachTopicsRecordsAreItsOwn() throws Exception {
        kafka.admin.createTopics(List.of(new NewTopic("fig.a", 2, (short) 1), new NewTopic("fig.b", 1, (short) 1),
                new NewTopic("fig.a.DLT", 1, (short) 1))).all().get();
        var template = kafka.batchingTemplate();
        OwnBroker.sendBatch(template, new TopicPartition("fig.a", 0), 5);
        OwnBroker.sendBatch(template, new TopicPartition("fig.a", 1), 3);
        OwnBroker.sendBatch(template, new TopicPartition("fig.b", 0), 4);
        OwnBroker.sendBatch(template, new TopicPartition("fig.a.DLT", 0), 2);
        template.destroy();
        // group g1 has read two records of fig.a's first partition; g2 has committed nothing
        kafka.admin.alterConsumerGroupOffsets("fig-g1", Map.of(new TopicPartition("fig.a", 0), new OffsetAndMetadata(2)))
                .all().get();

        var a = new KafkaInspector.Channel("fig.a", "fig-g1");
        var b = new KafkaInspector.Channel("fig.b", "fig-g2");
        var missing = new KafkaInspector.Channel("fig.never-made", "fig-g3");
        // a topic just made may take a moment to be described everywhere
        await().untilAsserted(() -> {
            KafkaInspector.Figures figures = inspector.figures(List.of(a, b, missing),
                    List.of("fig.a.DLT", "fig.never-made.DLT", "fig.b"));
            assertThat(figures.lags()).containsOnly(
                    Map.entry(a, new KafkaInspector.Lag("fig.a", "fig-g1", 6, 2, 8)),
                    Map.entry(b, new KafkaInspector.Lag("fig.b", "fig-g2", 4, 0, 4)),
                    Map.entry(missing, new KafkaInspector.Lag("fig.never-made", "fig-g3", 0, 0, 0)));
            assertThat(figures.records()).containsOnly(Map.entry("fig.a.DLT", 2L), Map.entry("fig.never-made.DLT", 0L),
                    Map.entry("fig.b", 4L));
        });
        assertThat(inspector.lag("fig-g1", "fig.a")).isEqualTo(new KafkaInspector.Lag("fig.a", "fig-g1", 6, 2, 8));
        assertThat(inspector.count("fig.a")).isEqualTo(8);
        assertThat(inspector.offsets("fig.never-made")).isEmpty();
        assertThat(inspector.offsets("fig.a").orElseThrow()).hasSize(2);
    }
}
