package io.swale.api;

import io.swale.config.ConfiguredPools;
import io.swale.kafka.KafkaInspector;
import io.swale.kafka.SwaleTopics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Every queue Swale consumes: the events and triggers topics (read by the scheduler's groups) and each pool's
 * dispatch topic, with the lag of its group, what the group has consumed, and its dead letters; a pool also
 * has its active instances by state. Kafka is asked about every queue at once; a queue it cannot answer for says
 * so, and the others and the counts from Redis are still shown.
 */
@Component
public class QueueViews {
    private final ConfiguredPools pools;
    private final PoolViews poolViews;
    private final KafkaInspector kafka;
    private final SwaleTopics topics;

    public QueueViews(ConfiguredPools pools, PoolViews poolViews, KafkaInspector kafka, SwaleTopics topics) {
        this.pools = pools;
        this.poolViews = poolViews;
        this.kafka = kafka;
        this.topics = topics;
    }

    public List<Map<String, Object>> queues() {
        Map<String, PoolViews.Counts> counts = poolViews.counts();
        Map<KafkaInspector.Channel, Map<String, Object>> views = new LinkedHashMap<>();
        for (SwaleTopics.Queue q : topics.queues(pools.pools().keySet())) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("queue", q.name());
            m.put("topic", q.channel().topic());
            m.put("group", q.channel().group());
            q.pool().ifPresent(pool -> {
                PoolViews.Counts c = counts.getOrDefault(pool, new PoolViews.Counts(0, 0, 0, 0));
                m.put("pending", c.pending());
                m.put("delayed", c.delayed());
                m.put("running", c.running() + c.cancelling());
            });
            views.put(q.channel(), m);
        }
        putGroupFigures(views, kafka);
        return new ArrayList<>(views.values());
    }

    /**
     * Into the view of each channel: the group's lag and consumed count and the topic's dead letters, all asked of
     * Kafka at once; a figure Kafka could not tell is null, and the view says why in {@code kafkaError}.
     */
    static void putGroupFigures(Map<KafkaInspector.Channel, Map<String, Object>> views, KafkaInspector kafka) {
        // what Kafka cannot tell comes back as a failure of the topic or group it concerns, never as an exception
        KafkaInspector.Figures figures = kafka.figures(views.keySet(),
                views.keySet().stream().map(c -> SwaleTopics.deadLetter(c.topic())).toList());
        views.forEach((channel, m) -> {
            String deadLetters = SwaleTopics.deadLetter(channel.topic());
            KafkaInspector.Lag lag = figures.lags().get(channel);
            m.put("lag", lag == null ? null : lag.lag());
            m.put("consumed", lag == null ? null : lag.consumed());
            m.put("deadLetters", figures.records().get(deadLetters));
            figures.failure(channel).or(() -> figures.failure(deadLetters)).ifPresent(why -> m.put("kafkaError", why));
        });
    }
}
