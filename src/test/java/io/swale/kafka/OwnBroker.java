package io.swale.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/** A one-node KRaft broker for one test class, with an admin client on it. */
final class OwnBroker implements AutoCloseable {
    private final EmbeddedKafkaKraftBroker kafka;
    final AdminClient admin;

    /** {@code brokerListProperty}: a system property of the test's own, so that no other broker's address is reused. */
    OwnBroker(String brokerListProperty) {
        kafka = new EmbeddedKafkaKraftBroker(1, 1);
        kafka.brokerListProperty(brokerListProperty);
        kafka.afterPropertiesSet();
        admin = AdminClient.create(Map.of("bootstrap.servers", kafka.getBrokersAsString()));
    }

    String bootstrap() {
        return kafka.getBrokersAsString();
    }

    /** The group's committed offset of {@code tp}, 0 when it has none. */
    long committed(String group, TopicPartition tp) throws Exception {
        OffsetAndMetadata o = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(tp);
        return o == null ? 0L : o.offset();
    }

    /** A producer that holds records a second, so that what is sent together goes in one produce batch. */
    KafkaTemplate<String, byte[]> batchingTemplate() {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 1_000);
        return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(config));
    }

    /** Sends {@code count} records to {@code tp} in one produce batch, so a listener gets them in one poll. */
    static void sendBatch(KafkaTemplate<String, byte[]> template, TopicPartition tp, int count) throws Exception {
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(template.send(tp.topic(), tp.partition(), "k" + i, new byte[] {1}));
        }
        template.flush();
        for (var f : sent) {
            f.get();
        }
    }

    @Override
    public void close() {
        admin.close();
        kafka.destroy();
    }
}
