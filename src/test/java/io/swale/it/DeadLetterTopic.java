package io.swale.it;

import io.swale.record.RecordCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;

/** Reads a pool's dead-letter topic from its beginning, keeping the records of one run id. */
final class DeadLetterTopic {
    private DeadLetterTopic() {}

    static List<JsonNode> read(Map<String, Object> kafkaAdminConfig, String topic, String runId) {
        Properties p = new Properties();
        p.putAll(kafkaAdminConfig);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-dlt-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<JsonNode> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (System.nanoTime() < end) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (runId.equals(r.key())) {
                        out.add(RecordCodec.JSON.readTree(r.value()));
                    }
                }
            }
        }
        return out;
    }
}
