package io.swale.kafka;

import io.swale.record.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;

/**
 * Reads a dead-letter topic with a short-lived consumer that joins no group: it assigns every partition,
 * reads from the earliest offsets up to the end offsets seen when it started, and stops at the limit or
 * the deadline. It never commits, so browsing changes nothing.
 */
public final class DeadLetterBrowser {
    /** Spring Kafka's dead-letter publisher puts the failure here. */
    static final String SPRING_ERROR_HEADER = "kafka_dlt-exception-message";

    private final Map<String, Object> consumerConfig;
    private final KafkaInspector inspector;
    private final Duration deadline;

    public DeadLetterBrowser(Map<String, Object> consumerConfig, KafkaInspector inspector, Duration deadline) {
        this.consumerConfig = Map.copyOf(consumerConfig);
        this.inspector = inspector;
        this.deadline = deadline;
    }

    /** The first {@code limit} letters in enqueue order; empty when the topic does not exist. */
    public Optional<List<DeadLetter>> browse(String topic, int limit) {
        Optional<Map<TopicPartition, long[]>> offsets = inspector.offsets(topic);
        if (offsets.isEmpty()) {
            return Optional.empty();
        }
        List<DeadLetter> out = new ArrayList<>();
        Map<TopicPartition, Long> starts = new HashMap<>();
        Map<TopicPartition, Long> ends = new HashMap<>();
        offsets.get().forEach((tp, o) -> {
            if (o[1] > o[0]) {
                starts.put(tp, o[0]);
                ends.put(tp, o[1]);
            }
        });
        if (!read(starts, ends, limit, out)) {
            // the first `limit` letters may lie in a partition not read yet: a short list would be a wrong answer
            throw unread(topic);
        }
        out.sort(Comparator.comparingLong(DeadLetter::timestampMs).thenComparing(DeadLetter::id));
        return Optional.of(out.size() > limit ? out.subList(0, limit) : out);
    }

    /**
     * One page of letters, continuing where {@code from} (next offset per partition) left off, merged across
     * partitions by enqueue time; {@code next} continues after the page. Every letter is reachable, however
     * many the topic holds. {@code partial}: the read deadline passed before every partition was read, so the
     * page may be short, even empty, though letters remain.
     */
    public record Page(List<DeadLetter> letters, Map<Integer, Long> next, boolean more, boolean partial) {}

    /** A page of {@code limit} letters from the cursor {@code from} (partition → next offset; absent: earliest). */
    public Optional<Page> page(String topic, Map<Integer, Long> from, int limit) {
        Optional<Map<TopicPartition, long[]>> offsets = inspector.offsets(topic);
        if (offsets.isEmpty()) {
            return Optional.empty();
        }
        Map<TopicPartition, Long> starts = new HashMap<>();
        Map<TopicPartition, Long> ends = new HashMap<>();
        Map<Integer, Long> next = new TreeMap<>();
        offsets.get().forEach((tp, o) -> {
            long start = Math.max(o[0], from.getOrDefault(tp.partition(), o[0]));
            next.put(tp.partition(), start);
            if (o[1] > start) {
                starts.put(tp, start);
                ends.put(tp, o[1]);
            }
        });
        List<DeadLetter> read = new ArrayList<>();
        boolean partial = !read(starts, ends, limit, read);
        // A k-way merge of each partition's letters in offset order: what a page takes of a partition is
        // always a prefix of it, so the cursor never skips a letter even when timestamps go backwards.
        Map<Integer, ArrayDeque<DeadLetter>> heads = new TreeMap<>();
        read.stream().sorted(Comparator.comparingInt(DeadLetter::partition).thenComparingLong(DeadLetter::offset))
                .forEach(l -> heads.computeIfAbsent(l.partition(), p -> new ArrayDeque<>()).add(l));
        List<DeadLetter> out = new ArrayList<>();
        while (out.size() < limit) {
            ArrayDeque<DeadLetter> best = null;
            for (ArrayDeque<DeadLetter> q : heads.values()) {
                if (!q.isEmpty() && (best == null || q.peek().timestampMs() < best.peek().timestampMs())) {
                    best = q;
                }
            }
            if (best == null) {
                break;
            }
            DeadLetter l = best.poll();
            out.add(l);
            next.put(l.partition(), l.offset() + 1);
        }
        boolean more = false;
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            more |= next.get(e.getKey().partition()) < e.getValue();
        }
        return Optional.of(new Page(out, next, more, partial));
    }

    /** The letter at one partition and offset of a topic. */
    public Optional<DeadLetter> find(String topic, int partition, long offset) {
        TopicPartition tp = new TopicPartition(topic, partition);
        Optional<Map<TopicPartition, long[]>> offsets = inspector.offsets(topic);
        long[] range = offsets.map(m -> m.get(tp)).orElse(null);
        if (range == null || offset < range[0] || offset >= range[1]) {
            return Optional.empty();
        }
        List<DeadLetter> out = new ArrayList<>();
        if (!read(Map.of(tp, offset), Map.of(tp, offset + 1), 1, out)) {
            // the letter is there (its offset is in range) but was not read in time: not "no such letter"
            throw unread(topic);
        }
        return out.stream().filter(l -> l.offset() == offset).findFirst();
    }

    private KafkaInspector.KafkaQueryException unread(String topic) {
        return new KafkaInspector.KafkaQueryException("the dead letters of " + topic + " were not all read within "
                + deadline.toMillis() + " ms (swale.ops.kafka-timeout)", null);
    }

    /** Reads into {@code out}; false when the deadline passed before every partition was read. */
    private boolean read(Map<TopicPartition, Long> starts, Map<TopicPartition, Long> ends, int limit, List<DeadLetter> out) {
        if (starts.isEmpty()) {
            return true;
        }
        Map<String, Object> config = new HashMap<>(consumerConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.min(500, Math.max(1, limit)));
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(starts.keySet());
            starts.forEach(consumer::seek);
            Map<TopicPartition, Long> remaining = new HashMap<>(ends);
            long until = System.nanoTime() + deadline.toNanos();
            // Each partition is read up to its end or to `limit` letters: the earliest `limit` overall are among those.
            Map<TopicPartition, Integer> taken = new HashMap<>();
            while (!remaining.isEmpty() && System.nanoTime() < until) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    Long end = remaining.get(tp);
                    if (end == null || r.offset() >= end) {
                        continue;
                    }
                    out.add(letter(r));
                    int n = taken.merge(tp, 1, Integer::sum);
                    if (r.offset() + 1 >= end || n >= limit) {
                        remaining.remove(tp);
                        consumer.pause(List.of(tp));
                    }
                }
                // a partition read past its end has no more letters, though its last offset brought none (a control
                // record, or records deleted since the offsets were read): done, not late
                for (var it = remaining.entrySet().iterator(); it.hasNext(); ) {
                    var e = it.next();
                    if (consumer.position(e.getKey()) >= e.getValue()) {
                        it.remove();
                        consumer.pause(List.of(e.getKey()));
                    }
                }
            }
            return remaining.isEmpty();
        }
    }

    private static Optional<JsonNode> value(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(RecordCodec.JSON.readTree(bytes));
        } catch (RuntimeException e) {
            return Optional.of(tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(
                    new String(bytes, StandardCharsets.UTF_8)));
        }
    }

    private static DeadLetter letter(ConsumerRecord<String, byte[]> r) {
        Map<String, String> headers = new HashMap<>();
        for (Header h : r.headers()) {
            if (h.value() != null && !h.key().startsWith("kafka_dlt-exception-stacktrace")) {
                headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
            }
        }
        Optional<JsonNode> value = value(r.value());
        String error = Optional.ofNullable(headers.get(KafkaDeadLetters.ERROR_HEADER))
                .or(() -> Optional.ofNullable(headers.get(SPRING_ERROR_HEADER)))
                .or(() -> value.filter(JsonNode::isObject).map(v -> v.path("last_error").asString(null)))
                .orElse("");
        return new DeadLetter(r.partition(), r.offset(), r.timestamp(), Optional.ofNullable(r.key()), headers, value, error);
    }
}
