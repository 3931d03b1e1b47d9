package io.swale.settings;

import static io.swale.settings.PropertyChecks.positive;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.ops.*}: how operators' questions to Kafka are bounded, and how often lag is measured.
 *
 * @param kafkaTimeout The longest any admin query to Kafka (health, lag, dead letters) may take.
 * @param lagInterval How often swale.kafka.consumer.lag is measured.
 */
@ConfigurationProperties("swale.ops")
public record OpsProperties(
        @DefaultValue("5s") Duration kafkaTimeout,
        @DefaultValue("15s") Duration lagInterval) {

    public OpsProperties {
        positive("swale.ops.kafka-timeout", kafkaTimeout);
        positive("swale.ops.lag-interval", lagInterval);
    }
}
