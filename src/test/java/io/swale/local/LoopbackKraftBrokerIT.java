package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The broker's address is known before the node serves, and a client handed it at once is served once the node
 * is up: what lets local mode build the Spring context while the broker starts.
 */
class LoopbackKraftBrokerIT {

    @Test
    void aClientGivenTheAddressBeforeTheNodeServesIsServedOnceItDoes() throws Exception {
        try (LoopbackKraftBroker broker = LoopbackKraftBroker.starting(1, Map.of("auto.create.topics.enable", "true"))) {
            String bootstrap = broker.bootstrapServers();
            assertThat(bootstrap).startsWith(LoopbackKraftBroker.LOOPBACK + ":");
            RecordMetadata sent;
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.MAX_BLOCK_MS_CONFIG, 120_000,
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000),
                    new StringSerializer(), new StringSerializer())) {
                // asked for straight away: the send waits for the node instead of failing
                sent = producer.send(new ProducerRecord<>("early", "k", "before the node served"))
                        .get(120, TimeUnit.SECONDS);
            }
            broker.awaitStarted();
            assertThat(sent.topic()).isEqualTo("early");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ConsumerConfig.GROUP_ID_CONFIG, "early-reader",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                    new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("early"));
                ConsumerRecords<String, String> got = ConsumerRecords.empty();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (got.isEmpty() && System.nanoTime() < deadline) {
                    got = consumer.poll(Duration.ofMillis(500));
                }
                assertThat(got.records("early")).extracting(r -> r.value()).containsExactly("before the node served");
            }
        }
    }
}
