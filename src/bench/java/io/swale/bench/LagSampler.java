package io.swale.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * Consumer lag of the application's channels (topic → group, as its ConsumerLagMonitor sees them), read with
 * the bench's own AdminClient: per sample, one ListOffsets and one OffsetFetch for all groups. Lag is end
 * offset minus committed offset, so it includes what a listener has handled but not yet committed.
 */
final class LagSampler implements AutoCloseable {
    private final AdminClient admin;
    private final Map<String, String> channels;
    private final Map<String, List<TopicPartition>> partitions = new HashMap<>();

    LagSampler(Map<String, Object> adminConfig, Map<String, String> channels) {
        Map<String, Object> c = new HashMap<>(adminConfig);
        c.put("client.id", "swale-bench-lag");
        this.admin = AdminClient.create(c);
        this.channels = channels;
    }

    /** Requests this sampler has sent so far, so the bench can take them out of the broker's counts. */
    long requests() {
        for (Map.Entry<MetricName, ? extends Metric> e : admin.metrics().entrySet()) {
            if (e.getKey().name().equals("request-total") && e.getKey().group().equals("admin-client-metrics")
                    && e.getValue().metricValue() instanceof Number n) {
                return Math.round(n.doubleValue());
            }
        }
        return 0;
    }

    /** Lag by "topic|group" now. */
    Map<String, Long> sample() throws Exception {
        if (partitions.isEmpty()) {
            admin.describeTopics(channels.keySet()).allTopicNames().get(30, TimeUnit.SECONDS).forEach((t, d) ->
                    partitions.put(t, d.partitions().stream().map(p -> new TopicPartition(t, p.partition())).toList()));
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.values().forEach(ps -> ps.forEach(tp -> latest.put(tp, OffsetSpec.latest())));
        Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
        channels.forEach((topic, group) -> specs.computeIfAbsent(group, g -> new ListConsumerGroupOffsetsSpec())
                .topicPartitions(partitions.getOrDefault(topic, List.of())));
        var ends = admin.listOffsets(latest).all();
        var committed = admin.listConsumerGroupOffsets(specs);
        Map<TopicPartition, Long> end = new HashMap<>();
        ends.get(30, TimeUnit.SECONDS).forEach((tp, info) -> end.put(tp, info.offset()));
        Map<String, Long> out = new LinkedHashMap<>();
        for (var ch : channels.entrySet()) {
            Map<TopicPartition, OffsetAndMetadata> offsets =
                    committed.partitionsToOffsetAndMetadata(ch.getValue()).get(30, TimeUnit.SECONDS);
            long lag = 0;
            for (TopicPartition tp : partitions.getOrDefault(ch.getKey(), List.of())) {
                OffsetAndMetadata c = offsets.get(tp);
                // a group that never committed on a partition has read nothing of it the bench can tell
                lag += Math.max(0, end.getOrDefault(tp, 0L) - (c == null ? 0 : c.offset()));
            }
            out.put(ch.getKey() + "|" + ch.getValue(), lag);
        }
        return out;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
