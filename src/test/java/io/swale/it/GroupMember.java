package io.swale.it;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A consumer-group member in a JVM of its own, for {@link ConsumerFailoverProcessIT} to kill: args are the
 * bootstrap servers, topic and group, then {@code key=value} consumer properties. Prints {@code ASSIGNED <n>}
 * whenever its assignment changes.
 */
public final class GroupMember {
    private GroupMember() {}

    public static void main(String[] args) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[2]);
        for (int i = 3; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            props.put(kv[0], kv[1]);
        }
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(args[1]));
            Set<TopicPartition> last = Set.of();
            while (true) {
                consumer.poll(Duration.ofMillis(100));
                Set<TopicPartition> now = Set.copyOf(consumer.assignment());
                if (!now.equals(last)) {
                    System.out.println("ASSIGNED " + now.size());
                    System.out.flush();
                    last = now;
                }
            }
        }
    }
}
