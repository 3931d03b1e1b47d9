package io.swale.kafka;

import io.swale.pool.DeadLetters;
import io.swale.record.RecordCodec;
import io.swale.scheduler.TaskIdentity;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.node.ObjectNode;

/** An informational copy of a dead-lettered dispatch on {@code swale.pool.<pool>.DLT}. */
public final class KafkaDeadLetters implements DeadLetters {
    public static final String ERROR_HEADER = "swale.error";

    private final KafkaTemplate<String, byte[]> template;
    private final SwaleTopics topics;
    private final Clock clock;

    public KafkaDeadLetters(KafkaTemplate<String, byte[]> template, SwaleTopics topics, Clock clock) {
        this.template = template;
        this.topics = topics;
        this.clock = clock;
    }

    @Override
    public void send(String pool, TaskIdentity identity, long attempts, String lastError) {
        ObjectNode value = RecordCodec.JSON.createObjectNode();
        value.put("run_id", identity.runId());
        value.put("attempts", attempts);
        value.put("last_error", lastError);
        value.put("dead_at_ms", clock.millis());
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(SwaleTopics.deadLetter(topics.pool(pool)),
                identity.runId(), RecordCodec.bytes(value));
        identity.headers().forEach((k, v) -> record.headers().add(k, v));
        record.headers().add(ERROR_HEADER, lastError.getBytes(StandardCharsets.UTF_8));
        template.send(record);
    }
}
