package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

/** A question Kafka does not answer in time: a failure of the figures it concerns, not an exception (Kafka's own admin mock). */
class KafkaInspectorFailuresTest {
    private final Node broker = new Node(0, "localhost", 9092);
    private final MockAdminClient admin = new MockAdminClient(List.of(broker), broker);
    private final KafkaInspector inspector = new KafkaInspector(admin, Duration.ofSeconds(2));

    private void topic(String name, Node leader) {
        admin.addTopic(false, name, List.of(new TopicPartitionInfo(0, leader, List.of(broker),
                leader.isEmpty() ? List.of() : List.of(broker))), Map.of());
    }

    @Test
    void aDescribeThatTimesOutIsAFailureOfItsTopicsAndTheNextQuestionIsAnswered() {
        topic("q.ok", broker);
        admin.updateBeginningOffsets(Map.of(new TopicPartition("q.ok", 0), 0L));
        admin.updateEndOffsets(Map.of(new TopicPartition("q.ok", 0), 5L));
        var ok = new KafkaInspector.Channel("q.ok", "g-ok");
        // no group asked: the describe is the first request, and it times out
        admin.timeoutNextRequest(1);

        KafkaInspector.Figures figures = inspector.figures(List.of(), List.of("q.ok"));

        assertThat(figures.records()).isEmpty();
        assertThat(figures.failure("q.ok")).isPresent();
        assertThatThrownBy(() -> {
            admin.timeoutNextRequest(1);
            inspector.count("q.ok");
        }).isInstanceOf(KafkaInspector.KafkaQueryException.class);
        assertThat(inspector.figures(List.of(ok), List.of("q.ok")).records()).containsOnly(Map.entry("q.ok", 5L));
    }
}
