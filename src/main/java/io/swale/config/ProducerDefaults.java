package io.swale.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The configuration of Swale's one producer: the client properties of {@code spring.kafka.producer.*} with
 * Swale's serializers and two defaults a property set there overrides.
 *
 * <ul>
 *   <li>{@code linger.ms=0}: a dispatch or event goes out as soon as the producer's I/O thread is free, so a
 *       lone record on a quiet service waits for nothing.</li>
 *   <li>{@code max.in.flight.requests.per.connection=1}: what is sent while a request is out waits for its
 *       answer and goes out with everything else sent meanwhile, in one request. Under load that batches like
 *       a linger without one's wait on a quiet service (in the bench a third to a half fewer produce requests
 *       per task instance, docs/performance.md), and the broker serves a connection's requests one at a time
 *       anyway. It gives up no guarantee: with idempotence on, records of a partition keep their order either
 *       way.</li>
 *   <li>{@code max.block.ms=10000}: how long a send may wait for its topic's metadata or for room in the
 *       buffer. With its only broker gone the client drops what it knew of the cluster, so every send waits for
 *       it again: a broker restart of a few seconds is waited out, and a longer outage fails a send after 10 s
 *       instead of the client's 60, which held an API request or a slot that long. A dispatch or event that
 *       fails so is sent again by a repair pass ({@code LostSendRepair}).</li>
 * </ul>
 */
public final class ProducerDefaults {
    private ProducerDefaults() {}

    public static Map<String, Object> apply(Map<String, Object> clientProperties) {
        Map<String, Object> config = new HashMap<>(clientProperties);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        return config;
    }

    /** The producer's {@code max.block.ms} as configured, Swale's default if unset. */
    public static Duration maxBlock(Map<String, Object> producerConfig) {
        Object value = producerConfig.getOrDefault(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        // parsed as the client parses it: a number, or a property's text
        long ms = (Long) ConfigDef.parseType(ProducerConfig.MAX_BLOCK_MS_CONFIG, value, ConfigDef.Type.LONG);
        return Duration.ofMillis(ms);
    }
}
