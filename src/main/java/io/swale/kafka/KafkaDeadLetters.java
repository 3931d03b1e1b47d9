package io.swale.kafka;

import io.swale.record.RecordCodec;
import io.swale.store.AttemptRecord;
import io.swale.task.DeadLetters;
import io.swale.task.SwaleMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.RetriableException;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.node.ObjectNode;

/**
 * An informational copy of a dead-lettered dispatch on {@code swale.pool.<pool>.DLT}: the dispatch's key and
 * identity headers, the last error in a header, and a JSON value with the attempts and their history. A send
 * returns once the broker has the copy: until then the instance owes it, and the reconciler sends it again.
 */
public final class KafkaDeadLetters implements DeadLetters {
    public static final String ERROR_HEADER = "swale.error";
    /** How long a send waits for the broker's acknowledgement before the copy is left to the reconciler. */
    static final long SEND_TIMEOUT_MS = 10_000;

    private final KafkaTemplate<String, byte[]> template;
    private final SwaleTopics topics;
    private final Clock clock;
    private final SwaleMetrics metrics;

    public KafkaDeadLetters(KafkaTemplate<String, byte[]> template, SwaleTopics topics, Clock clock,
            SwaleMetrics metrics) {
        this.template = template;
        this.topics = topics;
        this.clock = clock;
        this.metrics = metrics;
    }

    @Override
    public void send(DeadLetter letter) {
        var identity = letter.identity();
        ObjectNode value = RecordCodec.JSON.createObjectNode();
        value.put("run_id", identity.runId());
        value.put("graph", identity.graph());
        value.put("partition", identity.partition().key());
        value.put("node", identity.node());
        identity.asset().ifPresent(a -> value.put("asset", a));
        value.put("definition", identity.definition());
        value.put("rerun", identity.rerun());
        value.put("pool", letter.pool());
        value.put("attempts", letter.attempts());
        value.put("max_attempts", letter.maxAttempts());
        value.put("last_error", letter.lastError());
        value.put("dead_at_ms", clock.millis());
        value.set("history", AttemptRecord.toJson(letter.history()));
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(SwaleTopics.deadLetter(topics.pool(letter.pool())),
                identity.runId(), RecordCodec.bytes(value));
        identity.headers().forEach((k, v) -> record.headers().add(k, v));
        // like every dead letter's error header, bounded so that the letter fits the producer's limit
        record.headers().add(ERROR_HEADER, FittingDeadLetters.cutText(letter.lastError(),
                FittingDeadLetters.MAX_HEADER_BYTES).getBytes(StandardCharsets.UTF_8));
        try {
            template.send(record).get(SEND_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending the dead letter of " + identity.runId(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the dead letter of " + identity.runId() + " was not acknowledged within "
                    + SEND_TIMEOUT_MS + " ms", e);
        } catch (ExecutionException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            // spring-kafka's wrapper says only "Failed to send": the broker's reason is at the root
            String message = "the dead letter of " + identity.runId() + " was not sent to " + record.topic() + ": "
                    + NestedExceptionUtils.getMostSpecificCause(cause);
            throw permanent(cause) ? new DeadLetters.Undeliverable(message, cause)
                    : new IllegalStateException(message, cause);
        }
        metrics.deadLetter(record.topic());
    }

    /**
     * Whether no later try can send what this one could not: the broker refused the record itself (too large, not
     * authorised, an invalid topic), as opposed to Kafka being unavailable or the producer closing.
     */
    private static boolean permanent(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof RetriableException) {
                return false;
            }
            if (t instanceof ApiException) {
                return true;
            }
        }
        return false;
    }
}
