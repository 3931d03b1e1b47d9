package io.swale.actuate;

import io.swale.kafka.KafkaInspector;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/** Kafka is up when describeCluster answers within the admin timeout with at least one broker. */
public final class KafkaHealthIndicator extends AbstractHealthIndicator {
    private final KafkaInspector kafka;

    public KafkaHealthIndicator(KafkaInspector kafka) {
        super("Kafka health check failed");
        this.kafka = kafka;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        KafkaInspector.Cluster c = kafka.describeCluster();
        if (c.nodes() < 1) {
            builder.down().withDetail("clusterId", c.clusterId()).withDetail("nodes", 0);
            return;
        }
        builder.up().withDetail("clusterId", c.clusterId()).withDetail("nodes", c.nodes());
    }
}
