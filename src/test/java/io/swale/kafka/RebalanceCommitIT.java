package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.config.ConsumerGroupProperties;
import io.swale.settings.ConsumerSettings;
import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Issue 18, scope 1: an asynchronous commit a batch listener sends while its group rebalances fails (the member
 * has no stable generation then), and with the cooperative assignor the member keeps its partition and its
 * position, so unless the commit is sent again the partition's committed offset stays behind for as long as
 * nothing more arrives on it. On a real KRaft broker the rebalance is held open deterministically: the other
 * member leads the group and its assignor waits for the test, while the listener handles records and commits.
 */
class RebalanceCommitIT {
    static OwnBroker kafka;
    static AdminClient admin;

    /** Set while the leader's assignment is held; the assignment goes on once it counts down. */
    static volatile CountDownLatch hold = new CountDownLatch(0);

    /** The cooperative-sticky assignor, under its own name so the group agrees on it, that can be held. */
    public static final class HoldingAssignor extends CooperativeStickyAssignor {
        @Override
        public GroupAssignment assign(Cluster metadata, GroupSubscription subscriptions) {
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.assign(metadata, subscriptions);
        }
    }

    @BeforeAll
    static void broker() {
        kafka = new OwnBroker("swale.rebalancecommit.brokers");
        admin = kafka.admin;
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void aCommitSentDuringARebalanceReachesTheBrokerOnceTheGroupIsIdle() throws Exception {
        String topic = "rebalance-commit";
        String group = "rebalance-commit-group";
        admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        var template = kafka.batchingTemplate();
        // the consumer configuration Swale gives its listeners by default (cooperative-sticky)
        Map<String, Object> consumerConfig = ConsumerGroupProperties.apply(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap()),
                new ConsumerSettings(Duration.ofSeconds(10), Duration.ofSeconds(1),
                        List.of(ConsumerSettings.Assignor.COOPERATIVE_STICKY), ""));

        // the leader: joins first, polls on its own thread, and rebalances when asked
        AtomicBoolean rebalance = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        Thread leader = Thread.ofPlatform().start(() -> {
            Map<String, Object> config = new HashMap<>(consumerConfig);
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, HoldingAssignor.class.getName());
            config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
            config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            try (var consumer = new KafkaConsumer<String, byte[]>(config)) {
                consumer.subscribe(List.of(topic));
                while (!stop.get()) {
                    if (rebalance.getAndSet(false)) {
                        consumer.enforceRebalance();
                    }
                    consumer.poll(Duration.ofMillis(100));
                }
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> members(group) == 1 && state(group) == GroupState.STABLE);

        var containers = new ListenerContainers(consumerConfig, template, SwaleMetrics.NONE);
        AtomicInteger handled = new AtomicInteger();
        var listener = containers.batchListener(topic, group, 1, records -> handled.addAndGet(records.size()));
        listener.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> members(group) == 2 && state(group) == GroupState.STABLE
                && !listener.getAssignedPartitions().isEmpty());
        TopicPartition mine = listener.getAssignedPartitions().iterator().next();
        OwnBroker.sendBatch(template, mine, 5);
        await().atMost(Duration.ofSeconds(20)).until(() -> kafka.committed(group, mine) == 5);

        // hold a rebalance open (both members joined, the leader's assignment waits), and feed the listener then
        hold = new CountDownLatch(1);
        rebalance.set(true);
        await().atMost(Duration.ofSeconds(30)).until(() -> state(group) == GroupState.COMPLETING_REBALANCE);
        OwnBroker.sendBatch(template, mine, 5);
        await().atMost(Duration.ofSeconds(20)).until(() -> handled.get() == 10);
        // the listener's commit of those is due (100 ms), and the group is still rebalancing
        await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(1))
                .until(() -> state(group) == GroupState.COMPLETING_REBALANCE);
        hold.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> state(group) == GroupState.STABLE);
        assertThat(listener.getAssignedPartitions()).contains(mine);

        // nothing more is produced: what the listener handled must end up committed all the same
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(kafka.committed(group, mine)).isEqualTo(end(mine)));
        assertThat(handled.get()).isEqualTo(10);
        listener.stop();
        stop.set(true);
        leader.join();
        containers.close();
    }

    private static GroupState state(String group) throws Exception {
        return admin.describeConsumerGroups(List.of(group)).all().get().get(group).groupState();
    }

    private static int members(String group) throws Exception {
        return admin.describeConsumerGroups(List.of(group)).all().get().get(group).members().size();
    }

    private static long end(TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get().get(tp).offset();
    }

}
