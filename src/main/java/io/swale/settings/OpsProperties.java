package io.swale.settings;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code swale.ops.*}: how operators' questions to Kafka are bounded, and how often lag is measured. */
@ConfigurationProperties("swale.ops")
public class OpsProperties {
    /** The longest any admin query to Kafka (health, lag, dead letters) may take. */
    private Duration kafkaTimeout = Duration.ofSeconds(5);
    /** How often swale.kafka.consumer.lag is measured. */
    private Duration lagInterval = Duration.ofSeconds(15);

    public Duration getKafkaTimeout() {
        return kafkaTimeout;
    }

    public void setKafkaTimeout(Duration kafkaTimeout) {
        this.kafkaTimeout = kafkaTimeout;
    }

    public Duration getLagInterval() {
        return lagInterval;
    }

    public void setLagInterval(Duration lagInterval) {
        this.lagInterval = lagInterval;
    }
}
