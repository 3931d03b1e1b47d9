package io.swale.kafka;

import io.swale.pool.DeadLetters;
import io.swale.record.RecordCodec;
import io.swale.scheduler.SwaleMetrics;
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
    private final SwaleMetrics metrics;

    public KafkaDeadLetters(KafkaTemplate<String, byte[]> template, SwaleTopics topics, Clock clock) {
        this(template, topics, clock, SwaleMetrics.NONE);
    }

    public KafkaDeadLetters(KafkaTemplate<String, byte[]> template, SwaleTopics topics, Clock clock,
            SwaleMetrics metrics) {
        this.template = template;
        this.topics = topics;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public void send(String pool, TaskIdentity identity, long attempts, long maxAttempts, String lastError) {
        ObjectNode value = RecordCodec.JSON.createObjectNode();
        value.put("run_id", identity.runId());
        value.put("attempts", attempts);
        value.put("max_attempts", maxAttempts);
        value.put("last_error", lastError);
        value.put("dead_at_ms", clock.millis());
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(SwaleTopics.deadLetter(topics.pool(pool)),
                identity.runId(), RecordCodec.bytes(value));
        identity.headers().forEach((k, v) -> record.headers().add(k, v));
        record.headers().add(ERROR_HEADER, lastError.getBytes(StandardCharsets.UTF_8));
        template.send(record);
        metrics.deadLetter(record.topic());
    }
}
