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
 * has its active instances by state. Kafka is asked about every queue at once; when it cannot answer, each queue
 * says so, and the counts from Redis are still shown.
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
        out.add(view("events", new KafkaInspector.Channel(topics.events(), topics.schedulerGroup())));
        out.add(view("triggers", new KafkaInspector.Channel(topics.triggers(), topics.triggersGroup())));
        Map<String, PoolViews.Counts> counts = poolViews.counts();
        pools.pools().keySet().forEach(name -> {
            Map<String, Object> m = view("pool." + name, new KafkaInspector.Channel(topics.pool(name), topics.poolGroup(name)));
            PoolViews.Counts c = counts.getOrDefault(name, new PoolViews.Counts(0, 0, 0, 0));
            m.put("pending", c.pending());
            m.put("delayed", c.delayed());
            m.put("running", c.running() + c.cancelling());
            out.add(m);
        });
        putGroupFigures(out, kafka);
        return out;
    }

    private static Map<String, Object> view(String queue, KafkaInspector.Channel channel) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("queue", queue);
        m.put("topic", channel.topic());
        m.put("group", channel.group());
        return m;
    }

    /**
     * Into each view that names a {@code topic} and a {@code group}: the group's lag and consumed count and the
     * topic's dead letters, all asked of Kafka at once, or, in every view, why Kafka could not tell.
     */
    static void putGroupFigures(List<Map<String, Object>> views, KafkaInspector kafka) {
        List<KafkaInspector.Channel> channels = views.stream()
                .map(m -> new KafkaInspector.Channel((String) m.get("topic"), (String) m.get("group"))).toList();
        try {
            KafkaInspector.Figures figures = kafka.figures(channels,
                    channels.stream().map(c -> SwaleTopics.deadLetter(c.topic())).toList());
            for (int i = 0; i < views.size(); i++) {
                KafkaInspector.Lag lag = figures.lags().get(channels.get(i));
                views.get(i).put("lag", lag.lag());
                views.get(i).put("consumed", lag.consumed());
                views.get(i).put("deadLetters", figures.records().get(SwaleTopics.deadLetter(channels.get(i).topic())));
            }
        } catch (KafkaInspector.KafkaQueryException e) {
            views.forEach(m -> {
                m.put("lag", null);
                m.put("consumed", null);
                m.put("deadLetters", null);
                m.put("kafkaError", e.getMessage());
            });
        }
    }
}
