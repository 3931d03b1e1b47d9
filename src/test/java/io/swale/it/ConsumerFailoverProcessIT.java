package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.config.ConsumerGroupProperties;
import io.swale.local.EmbeddedInfrastructure;
import io.swale.settings.ConsumerSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * How long a {@code kill -9}'d member's partitions stay unread, with the consumer settings Swale uses by
 * default (swale.kafka.consumer.*): a member in a child JVM is killed and the survivor's assignment is watched
 * until it holds every partition. The time is printed ({@code FAILOVER …}); the test asserts the hand-over
 * happens, not how fast, and that with cooperative-sticky the survivor keeps its own partitions meanwhile. {@code -Dswale.failover.legacy=true} measures Kafka's own defaults instead (45 s
 * session, 3 s heartbeat, eager range assignor). Runs in the `multiprocess` profile.
 */
class ConsumerFailoverProcessIT {
    static final int PARTITIONS = 8;

    private EmbeddedInfrastructure infra;
    private Process child;

    @AfterEach
    void stop() {
        if (child != null) {
            child.destroyForcibly();
        }
        if (infra != null) {
            infra.close();
        }
    }

    @Test
    void aKilledMembersPartitionsMoveToTheSurvivor() throws Exception {
        infra = EmbeddedInfrastructure.start(PARTITIONS);
        String topic = "failover";
        String group = "failover-group";
        try (AdminClient admin = AdminClient.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                infra.kafkaBootstrap()))) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
        }
        Map<String, Object> membership = groupProperties();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), GroupMember.class.getName(), infra.kafkaBootstrap(), topic,
                group));
        membership.forEach((k, v) -> command.add(k + "=" + v));
        child = new ProcessBuilder(command).redirectErrorStream(true).start();
        AtomicInteger childPartitions = new AtomicInteger(-1);
        Thread reader = Thread.ofVirtual().start(() -> {
            try (var lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                lines.lines().filter(l -> l.startsWith("ASSIGNED ")).forEach(l ->
                        childPartitions.set(Integer.parseInt(l.substring("ASSIGNED ".length()))));
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                // the child is gone
            }
        });

        Map<String, Object> survivorProps = new HashMap<>(membership);
        survivorProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrap());
        survivorProps.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        AtomicInteger survivorPartitions = new AtomicInteger();
        AtomicLong allAt = new AtomicLong();
        AtomicLong killedAt = new AtomicLong();
        AtomicInteger fewestAfterKill = new AtomicInteger(Integer.MAX_VALUE);
        Thread survivor = Thread.ofPlatform().daemon().start(() -> {
            try (var consumer = new KafkaConsumer<>(survivorProps, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                consumer.subscribe(List.of(topic));
                while (!Thread.currentThread().isInterrupted() && allAt.get() == 0) {
                    consumer.poll(Duration.ofMillis(50));
                    int n = consumer.assignment().size();
                    survivorPartitions.set(n);
                    if (killedAt.get() != 0) {
                        fewestAfterKill.accumulateAndGet(n, Math::min);
                    }
                    if (n == PARTITIONS && killedAt.get() != 0) {
                        allAt.set(System.nanoTime());
                    }
                }
            } catch (org.apache.kafka.common.errors.InterruptException e) {
                // test over
            }
        });
        try {
            // both members hold partitions: the group is split
            await().atMost(Duration.ofSeconds(90)).until(() -> childPartitions.get() > 0
                    && survivorPartitions.get() > 0 && childPartitions.get() + survivorPartitions.get() == PARTITIONS);
            int heldBeforeKill = survivorPartitions.get();
            killedAt.set(System.nanoTime());
            child.destroyForcibly();
            await().atMost(Duration.ofSeconds(120)).until(() -> allAt.get() != 0);
            long ms = (allAt.get() - killedAt.get()) / 1_000_000;
            System.out.println("FAILOVER " + (legacy() ? "kafka-defaults" : "swale-defaults") + " " + membership
                    + " partitions_unread_after_kill_ms=" + ms + " survivor_held_before=" + heldBeforeKill
                    + " survivor_fewest_after_kill=" + fewestAfterKill.get());
            assertThat(survivorPartitions.get()).isEqualTo(PARTITIONS);
            if (!legacy()) {
                // incremental rebalance: the survivor never gives up what it held while the dead member's move
                assertThat(fewestAfterKill.get()).isGreaterThanOrEqualTo(heldBeforeKill);
            }
        } finally {
            survivor.interrupt();
            survivor.join(10_000);
            reader.interrupt();
        }
    }

    private static boolean legacy() {
        return Boolean.getBoolean("swale.failover.legacy");
    }

    /** What a Swale listener's consumer gets from swale.kafka.consumer.* at its defaults (or Kafka's own). */
    private static Map<String, Object> groupProperties() {
        if (legacy()) {
            return Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 45_000, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                    3_000, ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                    "org.apache.kafka.clients.consumer.RangeAssignor");
        }
        ConsumerSettings defaults = new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("swale.kafka.consumer", ConsumerSettings.class);
        return ConsumerGroupProperties.apply(Map.of(), defaults);
    }
}
