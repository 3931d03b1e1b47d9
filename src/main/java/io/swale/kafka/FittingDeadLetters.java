package io.swale.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.support.SendResult;

/**
 * A dead-letter recoverer whose letters always fit the producer's {@code max.request.size}: a record that
 * cannot be handled must never become one that cannot be dead-lettered either, or its partition is stuck
 * retrying it. Each header (the error text, spring-kafka's exception message and stack trace, copied
 * headers) keeps at most {@link #MAX_HEADER_BYTES} and ends with a marker when cut; the copied key and value
 * then get what is left, and {@link #TRUNCATED_HEADER} says what was cut.
 */
final class FittingDeadLetters extends DeadLetterPublishingRecoverer {
    /** Set on a letter whose headers, key or value were cut; its value says which and by how much. */
    static final String TRUNCATED_HEADER = "swale.truncated";
    /** The most one header of a letter keeps. */
    static final int MAX_HEADER_BYTES = 16 * 1024;
    /** Room left under the request limit for the record batch framing and the topic name. */
    static final int OVERHEAD_BYTES = 8 * 1024;
    static final int DEFAULT_MAX_REQUEST_SIZE = 1024 * 1024;
    static final String MARKER = "… [truncated, %d bytes in all]";

    private final int budget;

    FittingDeadLetters(KafkaOperations<?, ?> template,
            java.util.function.BiFunction<ConsumerRecord<?, ?>, Exception, TopicPartition> destination) {
        super(template, destination);
        this.budget = budget(template);
    }

    /** What one letter may weigh: the producer's request limit less the framing. */
    static int budget(KafkaOperations<?, ?> template) {
        Object limit;
        try {
            limit = template.getProducerFactory().getConfigurationProperties()
                    .get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        } catch (UnsupportedOperationException noConfiguration) {
            limit = null; // a factory that does not tell: the producer's default
        }
        int max = limit == null ? DEFAULT_MAX_REQUEST_SIZE : Integer.parseInt(limit.toString());
        return Math.max(MAX_HEADER_BYTES, max - OVERHEAD_BYTES);
    }

    /**
     * Sends as the base class does, but a send that fails at once (the producer's metadata wait timed out, a
     * letter over the size limit) is thrown with its cause: the base class logs it and throws without one, and
     * the cause is what tells an outage, retried, from a letter no retry can send.
     */
    @Override
    protected void publish(ProducerRecord<Object, Object> letter, KafkaOperations<Object, Object> template,
            ConsumerRecord<?, ?> record) {
        CompletableFuture<SendResult<Object, Object>> sent;
        try {
            sent = template.send(letter);
        } catch (RuntimeException e) {
            throw new KafkaException("Dead-letter publication to " + letter.topic()
                    + " failed for: " + record.topic() + "-" + record.partition() + "@" + record.offset(), e);
        }
        if (isFailIfSendResultIsError()) {
            verifySendResult(template, letter, sent, record);
        }
    }

    @Override
    protected ProducerRecord<Object, Object> createProducerRecord(ConsumerRecord<?, ?> record,
            TopicPartition topicPartition, Headers headers, byte[] key, byte[] value) {
        // key and value are only given for a deserialization failure; otherwise the record's own are sent
        Object k = key != null ? new String(key, StandardCharsets.UTF_8) : record.key();
        Object v = value != null ? value : record.value();
        Fitted fitted = fit(headers, k instanceof String s ? s : null, v instanceof byte[] b ? b : null, budget);
        ProducerRecord<Object, Object> out = super.createProducerRecord(record, topicPartition, fitted.headers(),
                null, fitted.value());
        return new ProducerRecord<>(out.topic(), out.partition(), out.timestamp(),
                k instanceof String ? fitted.key() : out.key(), out.value(), out.headers());
    }

    /** A letter's headers, key and value after cutting. */
    record Fitted(Headers headers, String key, byte[] value) {}

    /** The headers, key and value cut to weigh at most {@code budget} bytes together. */
    static Fitted fit(Headers headers, String key, byte[] value, int budget) {
        Headers out = new RecordHeaders();
        StringBuilder cut = new StringBuilder();
        int used = 0;
        for (Header h : headers) {
            byte[] v = h.value();
            if (v != null && v.length > MAX_HEADER_BYTES) {
                v = cutText(v, MAX_HEADER_BYTES);
                note(cut, "header " + h.key(), h.value().length);
            }
            out.add(new RecordHeader(h.key(), v));
            used += h.key().length() + (v == null ? 0 : v.length);
        }
        // what is left for the key and value, after room for the truncation note
        int left = Math.max(0, budget - used - 1024);
        String k = key;
        int keyBytes = key == null ? 0 : key.getBytes(StandardCharsets.UTF_8).length;
        if (keyBytes > MAX_HEADER_BYTES) {
            k = cutText(key, MAX_HEADER_BYTES);
            note(cut, "key", keyBytes);
            keyBytes = MAX_HEADER_BYTES;
        }
        left -= keyBytes;
        byte[] v = value;
        if (v != null && v.length > left) {
            v = Arrays.copyOf(v, Math.max(0, left));
            note(cut, "value", value.length);
        }
        if (!cut.isEmpty()) {
            out.add(new RecordHeader(TRUNCATED_HEADER, cutText(cut.toString(), 1024).getBytes(StandardCharsets.UTF_8)));
        }
        return new Fitted(out, k, v);
    }

    private static void note(StringBuilder cut, String what, int size) {
        cut.append(cut.isEmpty() ? "" : "; ").append(what).append(" of ").append(size).append(" bytes");
    }

    /** UTF-8 text cut to at most {@code max} bytes on a character boundary, ending with the marker. */
    static byte[] cutText(byte[] text, int max) {
        byte[] marker = MARKER.formatted(text.length).getBytes(StandardCharsets.UTF_8);
        int keep = Math.max(0, max - marker.length);
        // never split a multi-byte character: back off over continuation bytes (10xxxxxx)
        while (keep > 0 && keep < text.length && (text[keep] & 0xC0) == 0x80) {
            keep--;
        }
        byte[] out = Arrays.copyOf(text, keep + marker.length);
        System.arraycopy(marker, 0, out, keep, marker.length);
        return out;
    }

    static String cutText(String text, int max) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= max ? text : new String(cutText(bytes, max), StandardCharsets.UTF_8);
    }
}
