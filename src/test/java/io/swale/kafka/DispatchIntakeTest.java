package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import io.swale.worker.DispatchSlots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/** One poll fed to a worker's slots, on a consumer that owns only some of the poll's partitions. */
class DispatchIntakeTest {
    private static final String TOPIC = "swale.pool.default";
    private final TopicPartition p0 = new TopicPartition(TOPIC, 0);
    private final TopicPartition p1 = new TopicPartition(TOPIC, 1);

    /**
     * A poll retried after an outage, once a rebalance gave partition 1 to another replica: the retry claims and
     * commits what partition 0 holds and leaves partition 1 to its new owner. Was: it sought partition 1 back, which
     * the consumer no longer owned, and the exception turned the outage's retry into a failure that dead-lettered
     * the whole poll after a few seconds.
     */
    @Test
    void aRetriedPollLeavesThePartitionsARebalanceTookToTheirNewOwner() {
        MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
        consumer.assign(List.of(p0));
        List<ConsumerRecord<String, byte[]>> poll = List.of(dispatch(p0, 0, "a"), dispatch(p1, 0, "b"),
                dispatch(p0, 1, "c"), dispatch(p1, 1, "d"));
        TwoSlots slots = new TwoSlots();
        ListenerContainers containers = new ListenerContainers(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:9"), new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9"), new StringSerializer(),
                        new ByteArraySerializer())), SwaleMetrics.NONE);

        boolean putBack = new DispatchIntake(containers).take(slots, poll, consumer, 0);

        assertThat(putBack).isFalse();
        assertThat(slots.claimed).containsExactly("a", "c");
        assertThat(consumer.committed(java.util.Set.of(p0))).containsEntry(p0, new OffsetAndMetadata(2));
    }

    /**
     * A claim call that fails leaves its dispatches in doubt: each is remembered with its partition, so that when a
     * rebalance revokes that partition the worker releases the lease grants it kept for them, and only those.
     */
    @Test
    void theClaimsOfAFailedCallAreRememberedByPartitionUntilThatPartitionIsRevoked() {
        MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
        consumer.assign(List.of(p0, p1));
        List<ConsumerRecord<String, byte[]>> poll = List.of(dispatch(p0, 0, "a"), dispatch(p1, 0, "b"));
        TwoSlots failing = new TwoSlots() {
            @Override
            public boolean claimAndRun(List<TaskIdentity> ids, Runnable afterClaims) {
                throw new IllegalStateException("Read timed out");
            }
        };
        DispatchIntake intake = new DispatchIntake(containers());

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> intake.take(failing, poll, consumer, 0))
                .hasMessage("Read timed out");

        assertThat(intake.inDoubtFrom(List.of(p1))).containsExactly(runId("b"));
        assertThat(intake.inDoubtFrom(List.of(p1))).as("forgotten once told").isEmpty();
        assertThat(intake.inDoubtFrom(List.of(p0, p1))).containsExactly(runId("a"));
    }

    private static ListenerContainers containers() {
        return new ListenerContainers(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9"),
                new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        "127.0.0.1:9"), new StringSerializer(), new ByteArraySerializer())), SwaleMetrics.NONE);
    }

    private static String runId(String node) {
        return new TaskIdentity("g", Partition.of("p"), node, Optional.empty(), "h", 0).runId();
    }

    private static ConsumerRecord<String, byte[]> dispatch(TopicPartition tp, long offset, String node) {
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>(tp.topic(), tp.partition(), offset, "k", new byte[0]);
        new TaskIdentity("g", Partition.of("p"), node, Optional.empty(), "h", 0).headers()
                .forEach((k, v) -> record.headers().add(k, v));
        return record;
    }

    /** Two free slots; claims every dispatch it is given. */
    private static class TwoSlots implements DispatchSlots {
        final List<String> claimed = new ArrayList<>();
        private int free = 2;

        @Override
        public String pool() {
            return "default";
        }

        @Override
        public int reserve(int wanted, long waitMs) {
            int taken = Math.min(wanted, free);
            free -= taken;
            return taken;
        }

        @Override
        public void unreserve(int count) {
            free += count;
        }

        @Override
        public boolean claimAndRun(List<TaskIdentity> ids, Runnable afterClaims) {
            ids.forEach(id -> claimed.add(id.node()));
            afterClaims.run();
            return true;
        }
    }
}
