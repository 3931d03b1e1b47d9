package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.kafka.SwaleTopics;
import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Each event and dispatch delivered twice changes nothing the second time. */
class RedeliveryIT extends IntegrationTest {
    @Autowired
    KafkaTemplate<String, byte[]> kafka;

    @Autowired
    KafkaAdmin admin;

    @Autowired
    SwaleTopics topics;

    @Test
    void redeliveredEventsAndDispatchesChangeNothing() throws Exception {
        String g = unique("redeliver");
        api.publish(Graphs.chain(g, 3));
        api.start(g, "p");
        JsonNode before = awaitSettled(g, "p");
        assertThat(before.get("state").asString()).isEqualTo("complete");

        for (String node : new String[] {"n0", "n1", "n2"}) {
            TaskIdentity id = new TaskIdentity(g, Partition.of("p"), node, Optional.of(g + "_" + node),
                    before.get("definition").asString(), 0);
            awaitConsumed("swale-scheduler", send(topics.events(), id.runKey().id(), event(g, node), Map.of()));
            awaitConsumed("swale-pool-default", send(topics.pool("default"), id.runId(),
                    ("{\"run_id\":\"" + id.runId() + "\"}").getBytes(), id.headers()));
        }

        assertThat(api.run(g, "p")).isEqualTo(before);
    }

    @Test
    void malformedEventGoesToTheDeadLetterTopicAndEventsAroundItStillCount() throws Exception {
        String g = unique("malformed");
        api.publish(Graphs.chain(g, 3));
        String dlt = SwaleTopics.deadLetter(topics.events());
        long before = endOffsets(dlt);

        awaitConsumed("swale-scheduler", send(topics.events(), g + "/p", "not json".getBytes(), Map.of()));
        api.start(g, "p");

        assertThat(awaitSettled(g, "p").get("state").asString()).isEqualTo("complete");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> endOffsets(dlt) > before);
    }

    @Test
    void burstBeyondThePoolSlotsRunsEachInstanceOnceAndAMalformedDispatchIsDeadLettered() throws Exception {
        String g = unique("burst");
        StringBuilder toml = new StringBuilder("[graph]\nname = \"" + g + "\"\n");
        for (int i = 0; i < 12; i++) {
            toml.append("[[node]]\nname = \"r").append(i).append("\"\noperator = \"noop\"\npool = \"solo\"\n");
        }
        api.publish(toml.toString());
        String pool = topics.pool("solo");
        String dlt = SwaleTopics.deadLetter(pool);
        long deadBefore = endOffsets(dlt);

        // one slot and twelve dispatches: most of every poll goes back to the topic until the slot frees
        api.start(g, "p");
        RecordMetadata malformed = send(pool, g + "-junk", "{}".getBytes(), Map.of());

        JsonNode run = awaitSettled(g, "p");
        assertThat(run.get("state").asString()).isEqualTo("complete");
        for (JsonNode n : run.get("nodes")) {
            assertThat(n.get("record").get("status").asString()).isEqualTo("succeeded");
            assertThat(n.get("attempts")).hasSize(1);
        }
        awaitConsumed("swale-pool-solo", malformed);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> endOffsets(dlt) > deadBefore);
        ConsumerGroups.awaitCaughtUp(admin.getConfigurationProperties(), "swale-pool-solo", pool);
    }

    private long endOffsets(String topic) throws Exception {
        try (AdminClient client = AdminClient.create(admin.getConfigurationProperties())) {
            if (!client.listTopics().names().get().contains(topic)) {
                return 0;
            }
            var partitions = client.describeTopics(java.util.List.of(topic)).allTopicNames().get().get(topic).partitions();
            Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new java.util.HashMap<>();
            partitions.forEach(p -> latest.put(new TopicPartition(topic, p.partition()),
                    org.apache.kafka.clients.admin.OffsetSpec.latest()));
            return client.listOffsets(latest).all().get().values().stream().mapToLong(o -> o.offset()).sum();
        }
    }

    private static byte[] event(String g, String node) {
        ObjectNode e = RecordCodec.JSON.createObjectNode();
        e.put("graph", g);
        e.put("partition", "p");
        e.put("node", node);
        e.put("status", NodeStatus.SUCCEEDED.wireName());
        return RecordCodec.bytes(e);
    }

    private RecordMetadata send(String topic, String key, byte[] value, Map<String, byte[]> headers) throws Exception {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, key, value);
        headers.forEach((k, v) -> r.headers().add(k, v));
        return kafka.send(r).get().getRecordMetadata();
    }

    /** Waits until the group has committed past the record: the listener has handled it. */
    private void awaitConsumed(String group, RecordMetadata sent) {
        TopicPartition tp = new TopicPartition(sent.topic(), sent.partition());
        try (AdminClient client = AdminClient.create(admin.getConfigurationProperties())) {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
                Map<TopicPartition, OffsetAndMetadata> offsets =
                        client.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                OffsetAndMetadata o = offsets.get(tp);
                return o != null && o.offset() > sent.offset();
            });
        }
    }
}
