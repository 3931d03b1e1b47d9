package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.kafka.ListenerContainers;
import io.swale.kafka.SwaleTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Bad triggers cost nothing: a trigger whose error text would make a dead letter over the producer's limit,
 * or one over the trigger size limit, is dead-lettered (cut to fit) and the triggers after it on the same
 * partition are handled.
 */
class PoisonTriggerIT extends IntegrationSupport {
    private static final int MAX_LETTER_HEADER = 16 * 1024;

    @Autowired
    private KafkaTemplate<String, byte[]> kafka;

    @Autowired
    private SwaleTopics topics;

    @Autowired
    private Environment env;

    @Autowired
    private io.swale.settings.SwaleProperties props;

    @Test
    void aHugeInvalidPartitionKeyDoesNotStallItsPartition() throws Exception {
        clock.set("2026-09-22T08:00:00Z");
        publish(dailyGraph("trig_poison", Optional.empty(), Optional.empty()));
        String key = "trig_poison";
        // the error text repeats the key in three headers besides the copied value: ~620 KB of letter for an
        // ASCII key (its headers are cut), and over the producer's 1 MB for one of 150 K two-byte characters
        // (which the size limit now refuses unread; before, its letter could not be sent and the partition
        // retried it forever)
        send(key, "{\"graph\":\"trig_poison\",\"partitions\":[\"" + "x".repeat(150 * 1024) + "\"]}");
        send(key, "{\"graph\":\"trig_poison\",\"partitions\":[\"" + "é".repeat(150 * 1024) + "\"]}");
        send(key, "{\"graph\":\"trig_poison\",\"partitions\":[\"20260920\"]}");

        awaitRun("trig_poison", "20260920");
        List<ConsumerRecord<String, byte[]>> letters = deadLetters(key, 2);
        assertThat(letters).hasSize(2);
        assertThat(header(letters.get(0), ListenerContainers.REASON_HEADER)).contains("invalid partition key")
                .hasSizeLessThan(1024);
        assertThat(header(letters.get(1), ListenerContainers.REASON_HEADER)).contains("over the limit");
        for (ConsumerRecord<String, byte[]> letter : letters) {
            for (Header h : letter.headers()) {
                assertThat(h.value().length).as(h.key()).isLessThanOrEqualTo(MAX_LETTER_HEADER);
            }
        }
    }

    @Test
    void anOverSizeTriggerIsDeadLetteredUnreadAndTheNextIsHandled() throws Exception {
        clock.set("2026-09-23T08:00:00Z");
        publish(dailyGraph("trig_big", Optional.empty(), Optional.empty()));
        String key = "trig_big";
        // valid JSON of the right shape, only too large: refused for its size, not its content
        String padding = "\"20260901\",".repeat(30_000);
        send(key, "{\"graph\":\"trig_big\",\"partitions\":[" + padding + "\"20260902\"]}");
        send(key, "{\"graph\":\"trig_big\",\"partitions\":[\"20260921\"]}");

        awaitRun("trig_big", "20260921");
        assertThat(header(deadLetters(key, 1).getFirst(), ListenerContainers.REASON_HEADER)).contains("over the limit",
                "swale.scheduler.max-trigger-size");
        assertThat(partitions("trig_big")).containsExactly("20260921");
    }

    /** As a start through the API (docs/operations.md): at most swale.limits.start-partitions in one trigger. */
    @Test
    void aStartTriggerListingMorePartitionsThanAStartMayIsDeadLetteredWithTheLimit() throws Exception {
        clock.set("2026-09-24T08:00:00Z");
        publish(dailyGraph("trig_many", Optional.empty(), Optional.empty()));
        String key = "trig_many";
        int limit = props.limits().startPartitions();
        String many = java.util.stream.IntStream.rangeClosed(1, limit + 1).mapToObj(i -> "\"m" + i + "\"")
                .collect(java.util.stream.Collectors.joining(","));
        send(key, "{\"graph\":\"trig_many\",\"partitions\":[" + many + "]}");
        send(key, "{\"graph\":\"trig_many\",\"partitions\":[\"20260922\"]}");

        awaitRun("trig_many", "20260922");
        assertThat(header(deadLetters(key, 1).getFirst(), ListenerContainers.REASON_HEADER))
                .contains((limit + 1) + " partitions", "swale.limits.start-partitions");
        assertThat(partitions("trig_many")).containsExactly("20260922");
    }

    private void send(String key, String value) throws Exception {
        kafka.send(new ProducerRecord<>(topics.triggers(), key, value.getBytes(StandardCharsets.UTF_8)))
                .get(10, TimeUnit.SECONDS);
    }

    private static String header(ConsumerRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        assertThat(h).as(name).isNotNull();
        return new String(h.value(), StandardCharsets.UTF_8);
    }

    private List<ConsumerRecord<String, byte[]>> deadLetters(String key, int expected) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.getRequiredProperty("spring.kafka.bootstrap-servers"),
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(SwaleTopics.deadLetter(topics.triggers())));
            await().atMost(WAIT).until(() -> {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (key.equals(r.key())) {
                        found.add(r);
                    }
                }
                return found.size() >= expected;
            });
        }
        return found;
    }
}
