package io.swale.settings;

import static io.swale.settings.PropertyChecks.atLeast;
import static io.swale.settings.PropertyChecks.present;

import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.kafka.*}: the topics Swale creates, how many consumers read them and how their groups behave.
 *
 * @param topicPrefix Prefix of every topic Swale uses (events, triggers, pools and their dead letters), and of its
 *     consumer groups (`<prefix>scheduler`, `<prefix>pool-<pool>`); the default `swale.` keeps `swale-scheduler`.
 * @param partitions Partitions of each topic Swale creates.
 * @param replicationFactor Replication factor of each topic Swale creates.
 * @param listenerConcurrency Consumers of the events and triggers topics per scheduler replica.
 * @param consumer Group membership of every consumer: failure detection and partition assignment.
 */
public record KafkaSettings(
        @DefaultValue("swale.") String topicPrefix,
        @DefaultValue("4") int partitions,
        @DefaultValue("1") short replicationFactor,
        @DefaultValue("4") int listenerConcurrency,
        @DefaultValue @NestedConfigurationProperty ConsumerSettings consumer) {

    public KafkaSettings {
        present("swale.kafka.topic-prefix", topicPrefix);
        atLeast("swale.kafka.partitions", partitions, 1);
        atLeast("swale.kafka.replication-factor", replicationFactor, 1);
        atLeast("swale.kafka.listener-concurrency", listenerConcurrency, 1);
        present("swale.kafka.consumer", consumer);
    }
}
