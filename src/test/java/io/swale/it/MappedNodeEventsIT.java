package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.kafka.SwaleTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A mapped node's derived record sends the node's task-terminated event on {@code swale.events}, as every
 * plain node's termination does (docs/dynamic-graphs.md §5): read back from the real topic by a consumer of
 * its own, beside the events of the items.
 */
class MappedNodeEventsIT extends IntegrationTest {
    @Autowired
    Environment env;

    @Autowired
    SwaleTopics topics;

    private static String definition(String g, String array) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "list"
                operator = "shell"
                [node.params]
                command = '''printf '%%s' '{"files": %2$s}' '''
                [[node]]
                name = "each"
                after = ["list"]
                operator = "noop"
                map = "{{ upstream.list.files }}"
                [[node]]
                name = "after"
                after = ["each"]
                operator = "noop"
                """.formatted(g, array);
    }

    @Test
    void theDerivedRecordOfAMappedNodeSendsItsEventLikeAnyTermination() {
        String full = unique("mapev");
        String empty = unique("mapevempty");
        api.publish(definition(full, "[\"a\", \"b\", \"c\"]"));
        api.publish(definition(empty, "[]"));
        List<JsonNode> seen = new CopyOnWriteArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.getProperty("spring.kafka.bootstrap-servers"),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topics.events()).forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position); // the end, fixed before the runs start

            api.start(full, "p");
            api.start(empty, "p");
            assertThat(awaitSettled(full, "p").get("state").asString()).isEqualTo("complete");
            assertThat(awaitSettled(empty, "p").get("state").asString()).isEqualTo("complete");

            JsonMapper json = JsonMapper.builder().build();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(json.readTree(new String(r.value(), StandardCharsets.UTF_8)));
                }
                return events(seen, full, "each").size() == 1 && events(seen, empty, "each").size() == 1
                        && events(seen, full, "after").size() == 1;
            });
        }
        for (String g : List.of(full, empty)) {
            JsonNode each = events(seen, g, "each").getFirst();
            assertThat(each.get("partition").asString()).isEqualTo("p");
            assertThat(each.get("status").asString()).isEqualTo("succeeded");
        }
        // the items end with events of their own, as before
        assertThat(seen.stream().filter(e -> e.get("graph").asString().equals(full))
                .map(e -> e.get("node").asString()).filter(n -> n.startsWith("each["))).hasSize(3);
    }

    private static List<JsonNode> events(List<JsonNode> seen, String graph, String node) {
        return seen.stream().filter(e -> e.get("graph").asString().equals(graph) && e.get("node").asString().equals(node))
                .toList();
    }
}
