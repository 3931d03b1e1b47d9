package io.swale.api;

import io.swale.config.ConfiguredPools;
import io.swale.kafka.KafkaInspector;
import io.swale.kafka.SwaleTopics;
import io.swale.metrics.ConsumerLagMonitor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Every queue Swale consumes: the events and triggers topics (read by the scheduler's groups) and each pool's
 * dispatch topic, with the lag of its group, what the group has consumed, and its dead letters; a pool also
 * has its active instances by state. A queue Kafka cannot answer for says so and the others are still shown.
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
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(view("events", topics.events(), ConsumerLagMonitor.EVENTS_GROUP));
        out.add(view("triggers", topics.triggers(), ConsumerLagMonitor.TRIGGERS_GROUP));
        Map<String, PoolViews.Counts> counts = poolViews.counts();
        pools.pools().keySet().forEach(name -> {
            Map<String, Object> m = view("pool." + name, topics.pool(name), SwaleTopics.poolGroup(name));
            PoolViews.Counts c = counts.getOrDefault(name, new PoolViews.Counts(0, 0, 0, 0));
            m.put("pending", c.pending());
            m.put("delayed", c.delayed());
            m.put("running", c.running() + c.cancelling());
            out.add(m);
        });
        return out;
    }

    private Map<String, Object> view(String queue, String topic, String group) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("queue", queue);
        m.put("topic", topic);
        m.put("group", group);
        putGroupFigures(m, kafka, group, topic);
        return m;
    }

    /** The group's lag and consumed count and the topic's dead letters, or why Kafka could not tell. */
    static void putGroupFigures(Map<String, Object> m, KafkaInspector kafka, String group, String topic) {
        try {
            KafkaInspector.Lag lag = kafka.lag(group, topic);
            m.put("lag", lag.lag());
            m.put("consumed", lag.consumed());
            m.put("deadLetters", kafka.count(SwaleTopics.deadLetter(topic)));
        } catch (KafkaInspector.KafkaQueryException e) {
            m.put("lag", null);
            m.put("consumed", null);
            m.put("deadLetters", null);
            m.put("kafkaError", e.getMessage());
        }
    }
}
