package io.swale.it;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** Waits on what a consumer group has committed, read through the admin client. */
final class ConsumerGroups {
    private ConsumerGroups() {}

    /** Waits until {@code group} has committed every partition of {@code topic} it holds up to the topic's end. */
    static void awaitCaughtUp(Map<String, Object> adminConfig, String group, String topic) {
        try (AdminClient client = AdminClient.create(adminConfig)) {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
                Map<TopicPartition, OffsetAndMetadata> committed =
                        client.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                var ends = client.listOffsets(committed.keySet().stream().filter(tp -> tp.topic().equals(topic))
                        .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()))).all().get();
                return !ends.isEmpty() && ends.entrySet().stream()
                        .allMatch(e -> committed.get(e.getKey()).offset() >= e.getValue().offset());
            });
        }
    }
}
