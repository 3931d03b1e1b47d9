package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pool listener commits once per poll. The broker answers one commit of a connection at a time, each after
 * its write to the offsets topic, and the consumer queues the rest unsent without bound: under a steady feed
 * of small polls the committed offsets fell seconds behind the claims (10 s, and growing, at 500 task
 * instances/s in the bench). Coalescing keeps one commit in flight and sends what was asked meanwhile as one,
 * on a real KRaft broker here.
 */
class CoalescingCommitIT {
    private static final int ASKED = 2_000;
    static OwnBroker kafka;
    static AdminClient admin;

    @BeforeAll
    static void broker() {
        kafka = new OwnBroker("swale.coalescingcommit.brokers");
        admin = kafka.admin;
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void commitsAskedWhileOneIsInFlightGoAsOneAndTheLastOffsetIsCommitted() throws Exception {
        TopicPartition tp = topic("coalesce-poll");
        String group = "coalesce-poll-group";
        AtomicInteger called = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        try (Consumer<String, byte[]> consumer = RecommittingConsumer.coalescing(consumer(group))) {
            consumer.assign(List.of(tp));
            // what a listener asks for when each poll brings a record or two: one commit per poll
            for (int i = 1; i <= ASKED; i++) {
                consumer.commitAsync(Map.of(tp, new OffsetAndMetadata(i)), (offsets, e) -> {
                    called.incrementAndGet();
                    if (e != null) {
                        failed.incrementAndGet();
                    }
                });
            }
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(() -> {
                consumer.poll(Duration.ofMillis(50));
                return called.get() == ASKED;
            });

            assertThat(failed.get()).isZero();
            // never past what was asked, and not behind it
            assertThat(kafka.committed(group, tp)).isEqualTo(ASKED);
            // without coalescing every ask is its own commit request, and they queue up unsent
            assertThat(commitRequests(consumer)).isBetween(1.0, 10.0);
        }
    }

    @Test
    void whatIsStillQueuedAtCloseIsCommittedAsTheConsumerCloses() throws Exception {
        TopicPartition tp = topic("coalesce-close");
        String group = "coalesce-close-group";
        Consumer<String, byte[]> consumer = RecommittingConsumer.coalescing(consumer(group));
        consumer.assign(List.of(tp));
        for (int i = 1; i <= ASKED; i++) {
            consumer.commitAsync(Map.of(tp, new OffsetAndMetadata(i)), (offsets, e) -> { });
        }

        consumer.close(Duration.ofSeconds(20));

        assertThat(kafka.committed(group, tp)).isEqualTo(ASKED);
    }

    /**
     * A listener container stops by unsubscribing, then closing: by close the assignment is empty, and what was
     * still queued was dropped (the last polls' offsets left uncommitted, their dispatches read again by the next
     * owner). It is committed at the unsubscribe now.
     */
    @Test
    void whatIsStillQueuedWhenTheConsumerUnsubscribesIsCommittedFirst() throws Exception {
        TopicPartition tp = topic("coalesce-unsubscribe");
        String group = "coalesce-unsubscribe-group";
        Consumer<String, byte[]> consumer = RecommittingConsumer.coalescing(consumer(group));
        consumer.subscribe(List.of(tp.topic()));
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            consumer.poll(Duration.ofMillis(50));
            return consumer.assignment().contains(tp);
        });
        for (int i = 1; i <= ASKED; i++) {
            consumer.commitAsync(Map.of(tp, new OffsetAndMetadata(i)), (offsets, e) -> { });
        }

        consumer.unsubscribe();
        consumer.close(Duration.ofSeconds(20));

        assertThat(kafka.committed(group, tp)).isEqualTo(ASKED);
    }

    private static TopicPartition topic(String name) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get();
        return new TopicPartition(name, 0);
    }

    private static KafkaConsumer<String, byte[]> consumer(String group) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new KafkaConsumer<>(config);
    }

    private static double commitRequests(Consumer<?, ?> consumer) {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("commit-total")
                        && e.getKey().group().equals("consumer-coordinator-metrics"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }
}
