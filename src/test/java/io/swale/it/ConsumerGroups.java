package io.swale.it;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** Waits on what a consumer group has committed, read through the admin client. */
final class ConsumerGroups {
    private ConsumerGroups() {}

    /**
     * Waits until {@code group} has committed every partition of {@code topic} up to the topic's end. A
     * partition with records but no committed offset is behind: the group has not consumed it yet.
     */
    static void awaitCaughtUp(Map<String, Object> adminConfig, String group, String topic) {
        try (AdminClient client = AdminClient.create(adminConfig)) {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
                Map<TopicPartition, OffsetAndMetadata> committed =
                        client.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                return behind(committed, endOffsets(client, topic)).isEmpty();
            });
        }
    }

    /**
     * Waits until {@code group} has been Stable for a second: its members have joined and hold their
     * assignments, so a test can count on every member owning its share of the partitions.
     */
    static void awaitStable(Map<String, Object> adminConfig, String group) {
        try (AdminClient client = AdminClient.create(adminConfig)) {
            await().atMost(Duration.ofSeconds(30)).during(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(100))
                    .until(() -> client.describeConsumerGroups(List.of(group)).all().get().get(group).groupState()
                            == org.apache.kafka.common.GroupState.STABLE);
        }
    }

    /** The partitions whose end offset is past what {@code committed} holds (absent counts as offset 0). */
    static List<TopicPartition> behind(Map<TopicPartition, OffsetAndMetadata> committed, Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().filter(e -> {
            OffsetAndMetadata c = committed.get(e.getKey());
            return (c == null ? 0 : c.offset()) < e.getValue();
        }).map(Map.Entry::getKey).toList();
    }

    private static Map<TopicPartition, Long> endOffsets(AdminClient client, String topic) throws Exception {
        var description = client.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        Map<TopicPartition, OffsetSpec> all = description.partitions().stream()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
        return client.listOffsets(all).all().get().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }
}
