package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.kafka.ListenerContainers;
import io.swale.kafka.SwaleTopics;
import io.swale.trigger.TriggerHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
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

/** The three trigger-message forms of interfaces §3 on swale.triggers, and its dead letters. */
class TriggersIT extends IntegrationSupport {

    @Autowired
    private KafkaTemplate<String, byte[]> kafka;

    @Autowired
    private SwaleTopics topics;

    @Autowired
    private Environment env;

    @Test
    void eachFormStartsItsPartitionAndTwiceStartsOneRun() throws Exception {
        clock.set("2026-09-20T08:00:00Z");
        String hash = publish(dailyGraph("trig_forms", Optional.empty(), Optional.empty()));
        for (int twice = 0; twice < 2; twice++) {
            send("trig_forms", "{\"graph\":\"trig_forms\",\"partitions\":[\"20260915\",\"foo\"]}", Map.of());
            send("trig_forms", "{\"graph\":\"trig_forms\",\"time\":\"2026-09-16T05:00:00Z\"}", Map.of());
            send("trig_forms", "", Map.of(TriggerHeaders.GRAPH, "trig_forms",
                    TriggerHeaders.FIRE_MS, ms("2026-09-18T02:00:00Z"),
                    TriggerHeaders.PREVIOUS_FIRE_MS, ms("2026-09-17T02:00:00Z")));
        }
        send("trig_forms", "{\"graph\":\"trig_forms\",\"partitions\":[\"zz_last\"]}", Map.of());
        awaitRun("trig_forms", "zz_last");
        assertThat(partitions("trig_forms")).containsExactly("20260915", "20260916", "20260917", "foo", "zz_last");
        for (String p : List.of("20260915", "20260916", "20260917", "foo")) {
            assertThat(run("trig_forms", p).orElseThrow().definition()).isEqualTo(hash);
            assertThat(run("trig_forms", p).orElseThrow().requestedAtMs()).isEqualTo(clock.millis());
        }
    }

    @Test
    void malformedRecordsGoToTheDeadLetterTopicAndTheListenerGoesOn() throws Exception {
        clock.set("2026-09-21T08:00:00Z");
        publish(dailyGraph("trig_dlt", Optional.empty(), Optional.empty()));
        String key = "trig_dlt";
        send(key, "not json", Map.of());
        send(key, "{\"graph\":\"trig_dlt\"}", Map.of());
        send(key, "{\"graph\":\"trig_dlt\",\"partitions\":[\"2026-09-15\"]}", Map.of());
        send(key, "", Map.of(TriggerHeaders.PREVIOUS_FIRE_MS, ms("2026-09-17T02:00:00Z")));
        send(key, "{\"graph\":\"no_such_graph\",\"partitions\":[\"20260915\"]}", Map.of());
        send(key, "", Map.of(TriggerHeaders.GRAPH, "trig_dlt", TriggerHeaders.PREVIOUS_FIRE_MS, "soon"));
        send(key, "{\"graph\":\"trig_dlt\",\"partitions\":[\"20260919\"]}", Map.of());

        awaitRun("trig_dlt", "20260919");
        assertThat(partitions("trig_dlt")).containsExactly("20260919");
        List<String> reasons = deadLetterReasons(key, 6);
        assertThat(reasons).hasSize(6);
        assertThat(reasons.get(0)).contains("not JSON");
        assertThat(reasons.get(1)).contains("partitions", "time");
        assertThat(reasons.get(2)).contains("2026-09-15");
        assertThat(reasons.get(3)).contains(TriggerHeaders.GRAPH);
        assertThat(reasons.get(4)).contains("no_such_graph");
        assertThat(reasons.get(5)).contains("trig_dlt", "partition");
    }

    private void send(String key, String value, Map<String, String> headers) throws Exception {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.triggers(), key,
                value.getBytes(StandardCharsets.UTF_8));
        headers.forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
        kafka.send(record).get(10, TimeUnit.SECONDS);
    }

    private static String ms(String instant) {
        return Long.toString(Instant.parse(instant).toEpochMilli());
    }

    private List<String> deadLetterReasons(String key, int expected) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.getRequiredProperty("spring.kafka.bootstrap-servers"),
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        List<String> reasons = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(SwaleTopics.deadLetter(topics.triggers())));
            await().atMost(WAIT).until(() -> {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    Header h = r.headers().lastHeader(ListenerContainers.REASON_HEADER);
                    if (key.equals(r.key()) && h != null) {
                        reasons.add(new String(h.value(), StandardCharsets.UTF_8));
                    }
                }
                return reasons.size() >= expected;
            });
        }
        return reasons;
    }
}
