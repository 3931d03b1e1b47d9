package io.swale.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Read-only questions to the Kafka cluster through one shared AdminClient, each bounded by a timeout: the
 * cluster's liveness, whether a topic exists, its offsets, and how far a consumer group lags behind.
 */
public final class KafkaInspector implements AutoCloseable {
    /** The position of a consumer group on one topic, summed over its partitions. */
    public record Lag(String topic, String group, long lag, long consumed, long end) {}

    /** The cluster as describeCluster answered. */
    public record Cluster(String clusterId, int nodes) {}

    private final AdminClient admin;
    private final Duration timeout;

    public KafkaInspector(Map<String, Object> adminConfig, Duration timeout) {
        Map<String, Object> config = new HashMap<>(adminConfig);
        config.putIfAbsent("request.timeout.ms", (int) timeout.toMillis());
        config.putIfAbsent("default.api.timeout.ms", (int) timeout.toMillis());
        this.admin = AdminClient.create(config);
        this.timeout = timeout;
    }

    public Cluster describeCluster() {
        var r = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()));
        return new Cluster(get(r.clusterId()), get(r.nodes()).size());
    }

    /**
     * Whether Kafka serves these topics now: every partition of each has a leader. With no topic, whether the
     * cluster answers at all. A topic that does not exist is not served; a question unanswered in time throws.
     */
    public boolean leadersOf(Set<String> topics) {
        if (topics.isEmpty()) {
            describeCluster();
            return true;
        }
        // one question for all of them, so an outage costs one timeout, not one a topic
        return describeAll(topics).map(described -> described.values().stream().flatMap(d -> d.partitions().stream())
                .allMatch(p -> p.leader() != null && !p.leader().isEmpty())).orElse(false);
    }

    public boolean topicExists(String topic) {
        return describe(topic).isPresent();
    }

    public Optional<TopicDescription> describe(String topic) {
        return describeAll(List.of(topic)).map(described -> described.get(topic));
    }

    /** Every topic described, or empty when one of them does not exist. */
    private Optional<Map<String, TopicDescription>> describeAll(Collection<String> topics) {
        try {
            return Optional.of(get(admin.describeTopics(topics).allTopicNames()));
        } catch (KafkaQueryException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Earliest and latest offset of every partition of a topic; empty when the topic does not exist. */
    public Optional<Map<TopicPartition, long[]>> offsets(String topic) {
        Optional<TopicDescription> d = describe(topic);
        if (d.isEmpty()) {
            return Optional.empty();
        }
        List<TopicPartition> parts = d.get().partitions().stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        Map<TopicPartition, Long> earliest = list(parts, OffsetSpec.earliest());
        Map<TopicPartition, Long> latest = list(parts, OffsetSpec.latest());
        Map<TopicPartition, long[]> out = new HashMap<>();
        parts.forEach(tp -> out.put(tp, new long[] {earliest.getOrDefault(tp, 0L), latest.getOrDefault(tp, 0L)}));
        return Optional.of(out);
    }

    /** Records held by a topic (latest − earliest over its partitions); 0 when it does not exist. */
    public long count(String topic) {
        return offsets(topic).map(m -> m.values().stream().mapToLong(o -> o[1] - o[0]).sum()).orElse(0L);
    }

    /**
     * The lag of a group on a topic: the end offsets minus the group's committed offsets (the earliest offset
     * where it has committed nothing). {@code consumed} counts the records the group has moved past.
     */
    public Lag lag(String group, String topic) {
        Optional<Map<TopicPartition, long[]>> offsets = offsets(topic);
        if (offsets.isEmpty()) {
            return new Lag(topic, group, 0, 0, 0);
        }
        Map<TopicPartition, OffsetAndMetadata> committed =
                get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        long lag = 0, consumed = 0, end = 0;
        for (Map.Entry<TopicPartition, long[]> e : offsets.get().entrySet()) {
            long start = e.getValue()[0];
            long last = e.getValue()[1];
            OffsetAndMetadata c = committed.get(e.getKey());
            long position = c == null ? start : Math.max(start, c.offset());
            lag += Math.max(0, last - position);
            consumed += Math.max(0, position - start);
            end += last;
        }
        return new Lag(topic, group, lag, consumed, end);
    }

    private Map<TopicPartition, Long> list(Collection<TopicPartition> parts, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        parts.forEach(tp -> request.put(tp, spec));
        Map<TopicPartition, Long> out = new HashMap<>();
        get(admin.listOffsets(request, new ListOffsetsOptions()).all())
                .forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    private <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaQueryException("interrupted", e);
        } catch (ExecutionException e) {
            throw new KafkaQueryException(e.getCause().toString(), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaQueryException("Kafka did not answer within " + timeout.toMillis() + " ms", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }

    /** Kafka could not answer: unreachable, timed out, or refused. */
    public static final class KafkaQueryException extends RuntimeException {
        public KafkaQueryException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
