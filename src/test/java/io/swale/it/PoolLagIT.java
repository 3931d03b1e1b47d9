package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.kafka.SwaleTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * A pool that is busy most of the time (one slot, so most of every poll is sought back and the listener pauses)
 * still ends with its group committed up to the end of every partition once every run has settled: an idle
 * system shows no pool lag, and a restart redelivers nothing already claimed.
 */
class PoolLagIT extends IntegrationTest {
    private static final int RUNS = 200;

    @Autowired
    KafkaAdmin admin;

    @Autowired
    SwaleTopics topics;

    @Test
    void aBusyPoolCommitsEveryDispatchOnceItsRunsHaveSettled() {
        String g = unique("poollag");
        assertThat(api.publish("[graph]\nname = \"" + g + "\"\n[[node]]\nname = \"only\"\noperator = \"noop\"\n"
                + "pool = \"solo\"\n").status()).isEqualTo(201);
        List<String> partitions = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            partitions.add("p" + i);
        }
        for (int i = 0; i < RUNS; i += 50) {
            String body = partitions.subList(i, i + 50).stream().map(p -> "\"" + p + "\"")
                    .collect(Collectors.joining(",", "{\"partitions\":[", "]}"));
            assertThat(api.postJson("/api/v1/graphs/" + g + "/runs", body).status()).isLessThan(300);
        }
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> partitions.stream()
                .allMatch(p -> api.run(g, p).get("state").asString().equals("complete")));

        String topic = topics.pool("solo");
        try (AdminClient client = AdminClient.create(admin.getConfigurationProperties())) {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(lag(client, "swale-pool-solo", topic)).isEmpty());
        }
    }

    /** Per partition of {@code topic} that the group has not committed to its end: "committed/end". */
    private static Map<Integer, String> lag(AdminClient client, String group, String topic) throws Exception {
        var description = client.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        Map<TopicPartition, OffsetSpec> latest = description.partitions().stream()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
        var ends = client.listOffsets(latest).all().get();
        Map<TopicPartition, OffsetAndMetadata> committed =
                client.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        Map<Integer, String> behind = new TreeMap<>();
        ends.forEach((tp, end) -> {
            OffsetAndMetadata c = committed.get(tp);
            if (c == null || c.offset() < end.offset()) {
                behind.put(tp.partition(), (c == null ? "none" : Long.toString(c.offset())) + "/" + end.offset());
            }
        });
        return behind;
    }
}
