package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.record.RecordException;
import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BatchAcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.support.Acknowledgment;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Issue 18: a dispatch lost for a minute after a Redis outage (ChaosIT, 1 run in 12). A pool listener's claim
 * failed while Redis was down, so its container retried the whole poll; once Redis answered, the retry claimed
 * what the free slots allowed and put the rest back. spring-kafka then acknowledged the whole poll, as it does
 * after an error handler's retry succeeds, and committed past the records put back: the next owner of the
 * partition started after them, and only the reconciler found the instance, 60–120 s later. On a real KRaft
 * broker, with a listener that does what the pool listener does when its slots are full.
 */
class DispatchRetryCommitIT {
    static OwnBroker kafka;

    @BeforeAll
    static void broker() {
        kafka = new OwnBroker("swale.dispatchretrycommit.brokers");
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void aPollRetriedAfterAnOutageCommitsOnlyWhatItsRetryClaimed() throws Exception {
        String topic = "dispatch-retry";
        String group = "dispatch-retry-group";
        TopicPartition tp = new TopicPartition(topic, 0);
        var containers = fourDispatches(List.of(topic));
        var listener = new OneSlotListener();
        var container = containers.dispatchListener(topic, group, 10, listener);
        listener.container.set(container);
        container.start();

        // the first poll fails (Redis down), its retry claims offset 0 and puts 1..3 back; they come again
        await().atMost(Duration.ofSeconds(30)).until(() -> listener.firstOffsets.size() >= 3);
        container.stop();

        assertThat(listener.calls.get()).isGreaterThanOrEqualTo(3);
        assertThat(listener.firstOffsets.subList(0, 3)).containsExactly(0L, 0L, 1L);
        // the records put back stay uncommitted, so whoever owns the partition next is given them
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(kafka.committed(group, tp)).isEqualTo(1));
        containers.close();
    }

    @Test
    void aPollDeadLetteredWholeIsCommitted() throws Exception {
        String topic = "dispatch-dead";
        String group = "dispatch-dead-group";
        TopicPartition tp = new TopicPartition(topic, 0);
        var containers = fourDispatches(List.of(topic, SwaleTopics.deadLetter(topic)));
        AtomicInteger calls = new AtomicInteger();
        // a failure no retry changes (a stored record that cannot be read): the whole poll is dead-lettered
        var container = containers.dispatchListener(topic, group, 10,
                (BatchAcknowledgingConsumerAwareMessageListener<String, byte[]>) (records, ack, consumer) -> {
                    calls.incrementAndGet();
                    throw new RecordException("instance", "not JSON");
                });
        container.start();

        // the dead letters are sent, and their offsets committed: no owner of the partition reads them again
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kafka.committed(group, tp)).isEqualTo(4));
        container.stop();
        assertThat(calls.get()).isEqualTo(1);
        assertThat(kafka.committed(group, tp)).isEqualTo(4);
        containers.close();
    }

    /**
     * Redis loading its data after a restart (an outage: retried without end), then a failure no wait changes,
     * of the same exception class: the poll's back-off is chosen again for the new kind, and the poll is
     * dead-lettered once that kind's budget is spent. Was: the outage's back-off held, and the poll was retried
     * every five seconds for good, its partitions stalled behind it.
     */
    @Test
    void aPollWhoseFailureTurnsFromAnOutageToAnUnknownOneIsDeadLetteredOnceThatBudgetIsSpent() throws Exception {
        String topic = "dispatch-kinds";
        String group = "dispatch-kinds-group";
        TopicPartition tp = new TopicPartition(topic, 0);
        var containers = fourDispatches(List.of(topic, SwaleTopics.deadLetter(topic)));
        AtomicInteger calls = new AtomicInteger();
        var container = containers.dispatchListener(topic, group, 10,
                (BatchAcknowledgingConsumerAwareMessageListener<String, byte[]>) (records, ack, consumer) -> {
                    throw new JedisDataException(calls.incrementAndGet() <= 2
                            ? "LOADING Redis is loading the dataset in memory"
                            : "ERR user_script:1: WRONGTYPE Operation against a key holding the wrong kind of value");
                });
        container.start();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kafka.committed(group, tp)).isEqualTo(4));
        container.stop();
        assertThat(calls.get()).as("two outage tries, then the unknown kind's few").isBetween(3, 12);
        containers.close();
    }

    /** The topics, four dispatches sent to the first in one batch, and containers on this broker. */
    private static ListenerContainers fourDispatches(List<String> topics) throws Exception {
        kafka.admin.createTopics(topics.stream().map(t -> new NewTopic(t, 1, (short) 1)).toList()).all().get();
        KafkaTemplate<String, byte[]> template = kafka.batchingTemplate();
        OwnBroker.sendBatch(template, new TopicPartition(topics.getFirst(), 0), 4);
        return new ListenerContainers(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap()), template,
                SwaleMetrics.NONE);
    }

    /**
     * What the pool listener does with one free slot: the first call finds Redis down; then it claims the first
     * record of the poll, commits its offset, seeks back to the rest and pauses; later polls find no slot free.
     */
    private static final class OneSlotListener implements BatchAcknowledgingConsumerAwareMessageListener<String, byte[]> {
        final AtomicReference<ConcurrentMessageListenerContainer<String, byte[]>> container = new AtomicReference<>();
        final AtomicInteger calls = new AtomicInteger();
        final List<Long> firstOffsets = new CopyOnWriteArrayList<>();

        @Override
        public void onMessage(List<ConsumerRecord<String, byte[]>> records, Acknowledgment ack, Consumer<?, ?> consumer) {
            ConsumerRecord<String, byte[]> first = records.getFirst();
            firstOffsets.add(first.offset());
            TopicPartition tp = new TopicPartition(first.topic(), first.partition());
            switch (calls.incrementAndGet()) {
                case 1 -> throw new JedisConnectionException("Failed to connect to 127.0.0.1:6379");
                case 2 -> {
                    consumer.commitAsync(Map.of(tp, new OffsetAndMetadata(first.offset() + 1)), (o, e) -> { });
                    consumer.seek(tp, first.offset() + 1);
                }
                default -> {
                    consumer.seek(tp, first.offset());
                    container.get().pause();
                }
            }
        }
    }
}
