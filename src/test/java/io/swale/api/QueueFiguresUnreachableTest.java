package io.swale.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.kafka.KafkaInspector;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class QueueFiguresUnreachableTest {

    // asked queue by queue, twelve queues waited a timeout each (24 s here): the limit fails that
    @Test
    @Timeout(value = 15, unit = TimeUnit.SECONDS)
    void withKafkaUnreachableEveryQueueSaysSoAfterOneTimeout() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (KafkaInspector kafka = new KafkaInspector(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + closedPort), Duration.ofSeconds(2))) {
            Map<KafkaInspector.Channel, Map<String, Object>> views = new LinkedHashMap<>();
            for (int i = 0; i < 12; i++) {
                views.put(new KafkaInspector.Channel("swale.pool.p" + i, "swale-pool-p" + i), new LinkedHashMap<>());
            }

            QueueViews.putGroupFigures(views, kafka);

            assertThat(views.values()).allSatisfy(v -> assertThat(v).containsEntry("lag", null).containsEntry("deadLetters", null)
                    .hasEntrySatisfying("kafkaError", e -> assertThat((String) e).isNotBlank()));
        }
    }
}
