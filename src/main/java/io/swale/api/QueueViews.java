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
     * topic's dead letters, all asked of Kafka at once; a figure Kafka could not tell is null, and the view says
     * why in {@code kafkaError}.
     */
    static void putGroupFigures(List<Map<String, Object>> views, KafkaInspector kafka) {
        List<KafkaInspector.Channel> channels = views.stream()
                .map(m -> new KafkaInspector.Channel((String) m.get("topic"), (String) m.get("group"))).toList();
        // what Kafka cannot tell comes back as a failure of the topic or group it concerns, never as an exception
        KafkaInspector.Figures figures = kafka.figures(channels,
                channels.stream().map(c -> SwaleTopics.deadLetter(c.topic())).toList());
        for (int i = 0; i < views.size(); i++) {
            KafkaInspector.Channel channel = channels.get(i);
            String deadLetters = SwaleTopics.deadLetter(channel.topic());
            Map<String, Object> m = views.get(i);
            KafkaInspector.Lag lag = figures.lags().get(channel);
            m.put("lag", lag == null ? null : lag.lag());
            m.put("consumed", lag == null ? null : lag.consumed());
            m.put("deadLetters", figures.records().get(deadLetters));
            figures.failure(channel).or(() -> figures.failure(deadLetters)).ifPresent(why -> m.put("kafkaError", why));
        }
    }
}
