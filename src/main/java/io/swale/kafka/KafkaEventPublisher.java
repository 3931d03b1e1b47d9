package io.swale.kafka;

import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.task.EventPublisher;
import io.swale.task.TaskIdentity;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.node.ObjectNode;

/** Task-terminated events on {@code swale.events}, keyed by graph/partition so one run's events stay in order. */
public final class KafkaEventPublisher implements EventPublisher {
    private static final Logger log = LoggerFactory.getLogger(KafkaEventPublisher.class);
    private final KafkaTemplate<String, byte[]> template;
    private final SwaleTopics topics;
    private final LostSends lost;

    public KafkaEventPublisher(KafkaTemplate<String, byte[]> template, SwaleTopics topics, LostSends lost) {
        this.template = template;
        this.topics = topics;
        this.lost = lost;
    }

    @Override
    public void taskTerminated(TaskIdentity identity, NodeStatus status) {
        ObjectNode event = RecordCodec.JSON.createObjectNode();
        event.put("graph", identity.graph());
        event.put("partition", identity.partition().key());
        event.put("node", identity.node());
        event.put("status", status.wireName());
        // A lost event is repaired by a pass that reads the run itself; a send Kafka refuses at once fails no caller.
        if (lost.kafkaAway(topics.events())) {
            log.debug("event not tried, Kafka is unreachable runId={}", identity.runId());
            lost.lost("event", topics.events(), LostSends.UNSENT, false);
            return;
        }
        CompletableFuture<?> sent;
        try {
            sent = template.send(topics.events(), identity.runKey().id(), RecordCodec.bytes(event));
        } catch (org.springframework.kafka.KafkaException | org.apache.kafka.common.KafkaException e) {
            notSent(identity, e, true);
            return;
        }
        sent.whenComplete((r, e) -> {
            if (e != null) {
                notSent(identity, e, false);
            }
        });
    }

    private void notSent(TaskIdentity identity, Throwable e, boolean senderWaited) {
        log.warn("event not sent runId={} error={}", identity.runId(), e.toString());
        lost.lost("event", topics.events(), e, senderWaited);
    }
}
