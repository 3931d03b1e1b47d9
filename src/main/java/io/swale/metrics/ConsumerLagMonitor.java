package io.swale.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.swale.kafka.KafkaInspector;
import io.swale.kafka.SwaleTopics;
import io.swale.lifecycle.FixedDelayLoop;
import io.swale.run.PoolCatalog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges {@code swale.kafka.consumer.lag{topic,group}}: every interval, the lag of the scheduler's groups on
 * the events and triggers topics and of each pool's group on its dispatch topic. Scrapes read the last
 * value and never wait for Kafka.
 */
public final class ConsumerLagMonitor extends FixedDelayLoop {
    public static final String CONSUMER_LAG = "swale.kafka.consumer.lag";
    private static final Logger log = LoggerFactory.getLogger(ConsumerLagMonitor.class);

    private final KafkaInspector kafka;
    private final SwaleTopics topics;
    private final PoolCatalog pools;
    private final MeterRegistry registry;
    private final Map<String, AtomicLong> values = new ConcurrentHashMap<>();

    public ConsumerLagMonitor(KafkaInspector kafka, SwaleTopics topics, PoolCatalog pools, MeterRegistry registry,
            Duration interval) {
        super("swale-lag", interval(interval), interval(interval));
        this.kafka = kafka;
        this.topics = topics;
        this.pools = pools;
        this.registry = registry;
    }

    /** The channel of every queue whose lag is measured. */
    public List<KafkaInspector.Channel> channels() {
        return topics.queues(pools.pools().keySet()).stream().map(SwaleTopics.Queue::channel).toList();
    }

    /** One measurement of every channel, asked of Kafka at once; a channel Kafka does not answer for keeps its last value. */
    public void measure() {
        List<KafkaInspector.Channel> channels = channels();
        try {
            KafkaInspector.Figures figures = kafka.figures(channels, List.of());
            figures.lags().forEach((c, lag) ->
                    values.computeIfAbsent(c.topic() + "|" + c.group(), k -> register(c.topic(), c.group())).set(lag.lag()));
            channels.forEach(c -> figures.failure(c).ifPresent(why ->
                    log.debug("consumer lag not measured topic={} group={} error={}", c.topic(), c.group(), why)));
        } catch (RuntimeException e) {
            log.debug("consumer lag not measured channels={} error={}", channels.size(), e.toString());
        }
    }

    private AtomicLong register(String topic, String group) {
        AtomicLong v = new AtomicLong();
        Gauge.builder(CONSUMER_LAG, v, AtomicLong::get).description("Records a consumer group has yet to read")
                .tag("topic", topic).tag("group", group).register(registry);
        return v;
    }

    @Override
    protected void tick() {
        measure();
    }

    private static Duration interval(Duration asked) {
        return Duration.ofMillis(Math.max(100, asked.toMillis()));
    }
}
