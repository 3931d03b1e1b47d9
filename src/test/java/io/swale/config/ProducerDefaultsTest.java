package io.swale.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class ProducerDefaultsTest {

    @Test
    void aProducerSendsOneRequestAtATimeWithoutLingering() {
        Map<String, Object> out = ProducerDefaults.apply(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "k:9092"));
        assertThat(out).containsEntry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1)
                .containsEntry(ProducerConfig.LINGER_MS_CONFIG, 0)
                .containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000)
                .containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "k:9092")
                .containsEntry(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class)
                .containsEntry(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    }

    @Test
    void aPropertySetThroughSpringKafkaKeepsItsValue() {
        Map<String, Object> out = ProducerDefaults.apply(Map.of(
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5", ProducerConfig.LINGER_MS_CONFIG, "2",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "60000"));
        assertThat(out).containsEntry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5")
                .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "2")
                .containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, "60000");
    }

    @Test
    void theSerializersAreSwalesWhateverIsSet() {
        Map<String, Object> out = ProducerDefaults.apply(Map.of(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class));
        assertThat(out).containsEntry(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    }

    @Test
    void theMaxBlockIsReadAsTheClientReadsIt() {
        assertThat(ProducerDefaults.maxBlock(ProducerDefaults.apply(Map.of()))).isEqualTo(Duration.ofSeconds(10));
        assertThat(ProducerDefaults.maxBlock(Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, " 2500 ")))
                .isEqualTo(Duration.ofMillis(2500));
        assertThat(ProducerDefaults.maxBlock(Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000L)))
                .isEqualTo(Duration.ofMinutes(1));
    }
}
