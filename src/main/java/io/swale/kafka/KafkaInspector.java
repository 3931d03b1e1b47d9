package io.swale.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
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

    /** Over an admin client made elsewhere, whose own timeouts should not be shorter than {@code timeout}. */
    KafkaInspector(AdminClient admin, Duration timeout) {
        this.admin = admin;
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
        Offsets answer = offsetsOf(List.of(topic), deadline());
        answer.failure(topic).ifPresent(KafkaInspector::fail);
        return Optional.ofNullable(answer.offsets().get(topic));
    }

    /** Records held by a topic (latest − earliest over its partitions); 0 when it does not exist. */
    public long count(String topic) {
        Figures figures = figures(List.of(), List.of(topic));
        figures.failure(topic).ifPresent(KafkaInspector::fail);
        return figures.records().get(topic);
    }

    /**
     * The lag of a group on a topic: the end offsets minus the group's committed offsets (the earliest offset
     * where it has committed nothing). {@code consumed} counts the records the group has moved past.
     */
    public Lag lag(String group, String topic) {
        Channel channel = new Channel(topic, group);
        Figures figures = figures(List.of(channel), List.of());
        figures.failure(channel).ifPresent(KafkaInspector::fail);
        return figures.lags().get(channel);
    }

    private static void fail(String why) {
        throw new KafkaQueryException(why, null);
    }

    /** A topic and the consumer group that reads it. */
    public record Channel(String topic, String group) {}

    /**
     * The lag of each channel Kafka answered for, the records each counted topic holds (0 where it does not
     * exist), and why Kafka could not tell about the others: by topic, and by group.
     */
    public record Figures(Map<Channel, Lag> lags, Map<String, Long> records, Map<String, String> topicFailures,
            Map<String, String> groupFailures) {
        public Figures {
            lags = Map.copyOf(lags);
            records = Map.copyOf(records);
            topicFailures = Map.copyOf(topicFailures);
            groupFailures = Map.copyOf(groupFailures);
        }

        /** Why this channel has no lag, if it has none. */
        public Optional<String> failure(Channel channel) {
            return failure(channel.topic()).or(() -> Optional.ofNullable(groupFailures.get(channel.group())));
        }

        /** Why this topic has no offsets, if it has none. */
        public Optional<String> failure(String topic) {
            return Optional.ofNullable(topicFailures.get(topic));
        }
    }

    /**
     * The lags of {@code channels} and the record counts of {@code counted} in four questions to the cluster
     * whatever their number (describe, earliest and latest offsets, the groups' commits), within one timeout in
     * all: a slow or unreachable cluster costs a view of every queue one timeout, not one per queue. A topic
     * or group Kafka cannot answer for (a partition without a leader, a coordinator away) fails only the
     * figures that need it.
     */
    public Figures figures(Collection<Channel> channels, Collection<String> counted) {
        long deadline = deadline();
        Set<String> asked = new LinkedHashSet<>(counted);
        channels.forEach(c -> asked.add(c.topic()));
        Set<String> groups = new LinkedHashSet<>();
        channels.forEach(c -> groups.add(c.group()));
        // the groups' commits are asked for while the topics are described: neither waits for the other
        ListConsumerGroupOffsetsResult commits = groups.isEmpty() ? null
                : admin.listConsumerGroupOffsets(groups.stream().collect(
                        Collectors.toMap(g -> g, g -> new ListConsumerGroupOffsetsSpec())));
        Offsets offsets = offsetsOf(asked, deadline);
        Map<String, Map<TopicPartition, OffsetAndMetadata>> committed = new HashMap<>();
        Map<String, String> groupFailures = new HashMap<>();
        for (String group : groups) {
            try {
                committed.put(group, get(commits.partitionsToOffsetAndMetadata(group), deadline));
            } catch (KafkaQueryException e) {
                groupFailures.put(group, e.getMessage());
            }
        }
        Map<Channel, Lag> lags = new HashMap<>();
        for (Channel c : channels) {
            if (!offsets.failures().containsKey(c.topic()) && committed.containsKey(c.group())) {
                lags.put(c, lag(c, offsets.offsets().getOrDefault(c.topic(), Map.of()), committed.get(c.group())));
            }
        }
        Map<String, Long> records = new HashMap<>();
        for (String topic : counted) {
            if (!offsets.failures().containsKey(topic)) {
                records.put(topic, offsets.offsets().getOrDefault(topic, Map.of()).values().stream()
                        .mapToLong(o -> o[1] - o[0]).sum());
            }
        }
        return new Figures(lags, records, offsets.failures(), groupFailures);
    }

    private static Lag lag(Channel channel, Map<TopicPartition, long[]> offsets,
            Map<TopicPartition, OffsetAndMetadata> committed) {
        long lag = 0, consumed = 0, end = 0;
        for (Map.Entry<TopicPartition, long[]> e : offsets.entrySet()) {
            long start = e.getValue()[0];
            long last = e.getValue()[1];
            OffsetAndMetadata c = committed.get(e.getKey());
            long position = c == null ? start : Math.max(start, c.offset());
            lag += Math.max(0, last - position);
            consumed += Math.max(0, position - start);
            end += last;
        }
        return new Lag(channel.topic(), channel.group(), lag, consumed, end);
    }

    /** Earliest and latest offsets by topic (a missing topic has none), and why Kafka could not tell of others. */
    private record Offsets(Map<String, Map<TopicPartition, long[]>> offsets, Map<String, String> failures) {
        Optional<String> failure(String topic) {
            return Optional.ofNullable(failures.get(topic));
        }
    }

    private Offsets offsetsOf(Collection<String> topics, long deadline) {
        Map<String, String> failures = new HashMap<>();
        List<TopicPartition> parts = new ArrayList<>();
        if (!topics.isEmpty()) {
            admin.describeTopics(topics).topicNameValues().forEach((topic, described) -> {
                try {
                    for (TopicPartitionInfo p : get(described, deadline).partitions()) {
                        if (p.leader() == null || p.leader().isEmpty()) {
                            // its offsets would be retried until the timeout: say so at once instead
                            failures.put(topic, "partition " + p.partition() + " of " + topic + " has no leader");
                        }
                        parts.add(new TopicPartition(topic, p.partition()));
                    }
                } catch (KafkaQueryException e) {
                    if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                        failures.put(topic, e.getMessage());
                    }
                }
            });
        }
        parts.removeIf(tp -> failures.containsKey(tp.topic()));
        Map<String, Map<TopicPartition, long[]>> out = new HashMap<>();
        if (parts.isEmpty()) {
            return new Offsets(out, failures);
        }
        // both questions leave before either answer is awaited
        ListOffsetsResult earliest = list(parts, OffsetSpec.earliest());
        ListOffsetsResult latest = list(parts, OffsetSpec.latest());
        for (TopicPartition tp : parts) {
            try {
                long first = get(earliest.partitionResult(tp), deadline).offset();
                long last = get(latest.partitionResult(tp), deadline).offset();
                out.computeIfAbsent(tp.topic(), t -> new HashMap<>()).put(tp, new long[] {first, last});
            } catch (KafkaQueryException e) {
                failures.putIfAbsent(tp.topic(), e.getMessage());
            }
        }
        failures.keySet().forEach(out::remove);
        return new Offsets(out, failures);
    }

    private ListOffsetsResult list(Collection<TopicPartition> parts, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        parts.forEach(tp -> request.put(tp, spec));
        return admin.listOffsets(request, new ListOffsetsOptions());
    }

    private long deadline() {
        return System.nanoTime() + timeout.toNanos();
    }

    private <T> T get(KafkaFuture<T> future) {
        return get(future, deadline());
    }

    private <T> T get(KafkaFuture<T> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
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
