package io.swale.kafka;

import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.task.EventPublisher;
import io.swale.task.TaskIdentity;
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
        // a lost event is repaired by a pass that reads the run itself
        String topic = topics.events();
        ReportedSends.send(lost, "event", topic,
                () -> template.send(topic, identity.runKey().id(), RecordCodec.bytes(event)),
                e -> log.warn("event not sent runId={} error={}", identity.runId(), e.toString()));
    }
}
