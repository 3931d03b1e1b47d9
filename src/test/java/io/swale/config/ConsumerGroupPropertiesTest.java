package io.swale.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.settings.ConsumerSettings;
import io.swale.settings.ConsumerSettings.Assignor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

class ConsumerGroupPropertiesTest {
    private static final ConsumerSettings DEFAULTS = new ConsumerSettings(Duration.ofSeconds(10), Duration.ofSeconds(1),
            List.of(Assignor.COOPERATIVE_STICKY), "");

    @Test
    void theSettingsBecomeTheConsumersGroupProperties() {
        Map<String, Object> out = ConsumerGroupProperties.apply(Map.of("bootstrap.servers", "k:9092"), DEFAULTS);
        assertThat(out).containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000)
                .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1_000)
                .containsEntry(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                        "org.apache.kafka.clients.consumer.CooperativeStickyAssignor")
                .containsEntry("bootstrap.servers", "k:9092")
                .doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    }

    @Test
    void aGroupInstanceIdMakesTheMembershipStatic() {
        var settings = new ConsumerSettings(Duration.ofSeconds(10), Duration.ofSeconds(3),
                List.of(Assignor.COOPERATIVE_STICKY, Assignor.RANGE), "swale-worker-0");
        assertThat(ConsumerGroupProperties.apply(Map.of(), settings))
                .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "swale-worker-0")
                .containsEntry(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                        "org.apache.kafka.clients.consumer.CooperativeStickyAssignor,"
                                + "org.apache.kafka.clients.consumer.RangeAssignor");
    }

    @Test
    void anExplicitClientPropertyKeepsItsValue() {
        Map<String, Object> out = ConsumerGroupProperties.apply(Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000"),
                DEFAULTS);
        assertThat(out).containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000")
                .containsEntry(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1_000);
    }

    @Test
    void theNewConsumerProtocolIsRefusedByName() {
        assertThatThrownBy(() -> ConsumerGroupProperties.apply(Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer"),
                DEFAULTS)).isInstanceOf(IllegalStateException.class).hasMessageContaining("group.protocol=consumer")
                .hasMessageContaining("classic");
        assertThat(ConsumerGroupProperties.apply(Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic"), DEFAULTS))
                .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
    }
}
