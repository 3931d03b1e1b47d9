package io.swale.kafka;

import java.util.Map;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
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

    @Override
    public void close() {
        admin.close();
        kafka.destroy();
    }
}
