package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Letters that could not be read within the deadline (a broker slower than swale.ops.kafka-timeout, here one that is
 * not there) are an unavailable answer (503). Was: the list came back short, even empty, as if it were complete, and
 * a letter whose offset is in range was answered "no such letter" (404).
 */
class DeadLetterBrowserDeadlineTest {
    private static final String TOPIC = "swale.pool.default.DLT";

    private static DeadLetterBrowser browserOfAnUnansweringBroker() {
        KafkaInspector inspector = mock(KafkaInspector.class);
        when(inspector.offsets(TOPIC)).thenReturn(Optional.of(Map.of(new TopicPartition(TOPIC, 0), new long[] {0, 5})));
        // a closed port: the consumer's fetches never answer
        return new DeadLetterBrowser(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1"), inspector,
                Duration.ofMillis(300));
    }

    @Test
    void aListNotReadInTimeIsUnavailableNotShort() {
        assertThatThrownBy(() -> browserOfAnUnansweringBroker().browse(TOPIC, 20))
                .isInstanceOf(KafkaInspector.KafkaQueryException.class)
                .hasMessageContaining(TOPIC).hasMessageContaining("swale.ops.kafka-timeout");
    }

    @Test
    void aLetterInRangeNotReadInTimeIsUnavailableNotMissing() {
        assertThatThrownBy(() -> browserOfAnUnansweringBroker().find(TOPIC, 0, 3))
                .isInstanceOf(KafkaInspector.KafkaQueryException.class)
                .hasMessageContaining("swale.ops.kafka-timeout");
    }
}
