package io.swale.config;

import io.swale.settings.ConsumerSettings;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group-membership part of every Swale consumer's configuration, from {@code swale.kafka.consumer.*}. A
 * key also set through {@code spring.kafka.*} keeps that value (an explicit client setting wins), with a
 * warning, since two places for one setting are one too many.
 */
public final class ConsumerGroupProperties {
    private static final Logger log = LoggerFactory.getLogger(ConsumerGroupProperties.class);

    private ConsumerGroupProperties() {}

    public static Map<String, Object> apply(Map<String, Object> clientProperties, ConsumerSettings settings) {
        Object protocol = clientProperties.getOrDefault(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        if (!"classic".equalsIgnoreCase(String.valueOf(protocol))) {
            throw new IllegalStateException("group.protocol=" + protocol + " is not supported: Swale's consumers use"
                    + " the classic group protocol (remove spring.kafka.properties.group.protocol, or set it to classic);"
                    + " tune failure detection with swale.kafka.consumer.*");
        }
        Map<String, Object> group = new HashMap<>();
        group.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) settings.sessionTimeout().toMillis());
        group.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) settings.heartbeatInterval().toMillis());
        group.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                settings.assignment().stream().map(ConsumerSettings.Assignor::className).collect(Collectors.joining(",")));
        if (!settings.groupInstanceId().isEmpty()) {
            // the listener containers add -0, -1, … per consumer, so each consumer of a group has its own id
            group.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, settings.groupInstanceId());
        }
        Map<String, Object> out = new HashMap<>(clientProperties);
        group.forEach((key, value) -> {
            Object explicit = clientProperties.get(key);
            if (explicit == null) {
                out.put(key, value);
            } else if (!Objects.equals(String.valueOf(explicit), String.valueOf(value))) {
                log.warn("consumer property {}={} is set through spring.kafka.*; it overrides swale.kafka.consumer "
                        + "({}); set it there instead", key, explicit, value);
            }
        });
        return out;
    }
}
