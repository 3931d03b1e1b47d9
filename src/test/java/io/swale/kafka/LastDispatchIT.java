package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Issue 18, scope 3: the dispatch of a lease given back at shutdown is the last thing the process sends, and
 * nothing flushes Swale's producer when the JVM exits (its factory is not a bean, and the template does not close
 * it). A record still buffered then is lost; the survivor never sees it and only the reconciler (60 s) dispatches
 * the instance again. The exit is played by closing the producer without waiting, on a real KRaft broker; a
 * linger of a minute keeps the record buffered until then, so the outcome does not depend on timing.
 */
class LastDispatchIT {
    static EmbeddedKafkaKraftBroker kafka;

    @BeforeAll
    static void broker() {
        kafka = new EmbeddedKafkaKraftBroker(1, 1);
        kafka.brokerListProperty("swale.lastdispatch.brokers");
        kafka.afterPropertiesSet();
    }

    @AfterAll
    static void stopBroker() {
        kafka.destroy();
    }

    private record Process(DefaultKafkaProducerFactory<String, byte[]> producers, KafkaDispatcher dispatcher) {
        /** What the JVM's end does to a producer nobody closed: its buffered records go with it. */
        void exit() {
            producers.setPhysicalCloseTimeout(0);
            producers.destroy();
        }
    }

    private Process process(SwaleTopics topics) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBrokersAsString());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 60_000);
        var producers = new DefaultKafkaProducerFactory<String, byte[]>(config);
        KafkaAdmin admin = new KafkaAdmin(Map.of("bootstrap.servers", kafka.getBrokersAsString()));
        return new Process(producers, new KafkaDispatcher(new KafkaTemplate<>(producers), topics,
                new PoolTopics(admin, topics, 1, (short) 1), LostSends.NONE));
    }

    private static TaskIdentity id(String node) {
        return new TaskIdentity("g", Partition.of("p"), node, Optional.empty(), "h", 0);
    }

    private List<String> keysOn(String topic) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBrokersAsString(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        try (var consumer = new KafkaConsumer<String, byte[]>(config)) {
            TopicPartition p = new TopicPartition(topic, 0);
            consumer.assign(List.of(p));
            consumer.seekToBeginning(List.of(p));
            long end = consumer.endOffsets(List.of(p)).get(p);
            List<String> keys = new ArrayList<>();
            while (consumer.position(p) < end) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> keys.add(r.key()));
            }
            return keys;
        }
    }

    @Test
    void aDispatchSentAsynchronouslyJustBeforeTheExitIsLost() {
        SwaleTopics topics = new SwaleTopics("async.");
        Process p = process(topics);
        p.dispatcher().dispatch("gpu", id("handed_over"));
        p.exit();
        assertThat(keysOn(topics.pool("gpu"))).doesNotContain(id("handed_over").runId());
    }

    /** What ShutdownHandOver sends now: the drain returns only once the broker has the dispatch. */
    @Test
    void aDispatchSentNowBeforeTheExitIsOnTheTopic() {
        SwaleTopics topics = new SwaleTopics("now.");
        Process p = process(topics);
        p.dispatcher().dispatchNow("gpu", id("handed_over"), Duration.ofSeconds(30));
        p.exit();
        assertThat(keysOn(topics.pool("gpu"))).containsExactly(id("handed_over").runId());
    }
}
