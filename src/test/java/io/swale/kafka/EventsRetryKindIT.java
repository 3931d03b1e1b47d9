package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.record.RecordException;
import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * An event that failed first in an outage (retried without end) and then for a reason no retry changes is
 * dead-lettered and its offset committed. Was: the outage's back-off held for good, since every failure of a batch
 * listener arrived as one exception class, and the event was retried for ever with its partition stalled.
 */
class EventsRetryKindIT {
    static OwnBroker kafka;

    @BeforeAll
    static void broker() {
        kafka = new OwnBroker("swale.eventsretrykind.brokers");
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void anEventFailingInAnOutageThenPermanentlyIsDeadLettered() throws Exception {
        String topic = "events-kind";
        String group = "events-kind-group";
        TopicPartition tp = new TopicPartition(topic, 0);
        TopicPartition dlt = new TopicPartition(SwaleTopics.deadLetter(topic), 0);
        kafka.admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1), new NewTopic(dlt.topic(), 1, (short) 1)))
                .all().get();
        var template = kafka.batchingTemplate();
        OwnBroker.sendBatch(template, tp, 1);
        var containers = new ListenerContainers(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap()),
                template, SwaleMetrics.NONE);
        AtomicInteger calls = new AtomicInteger();
        var container = containers.batchListener(topic, group, 1, records -> {
            if (calls.incrementAndGet() <= 2) {
                throw FailedEvent.at(records.getFirst(), new JedisConnectionException("Failed to connect"));
            }
            throw FailedEvent.at(records.getFirst(), new RecordException("run", "not JSON"));
        });
        container.start();
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(kafka.committed(group, tp)).isEqualTo(1));
            assertThat(kafka.admin.listOffsets(Map.of(dlt, OffsetSpec.latest())).all().get().get(dlt).offset())
                    .as("dead letters").isEqualTo(1);
            assertThat(calls.get()).isEqualTo(3);
        } finally {
            container.stop();
            containers.close();
        }
    }
}
