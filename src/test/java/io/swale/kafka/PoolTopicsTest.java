package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.KafkaAdmin;

class PoolTopicsTest {

    @Test
    void theBoundedAdminsCallsOutliveItsOperationByASecond() {
        KafkaAdmin admin = PoolTopics.boundedAdmin(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "k:9092",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000), Duration.ofMillis(2_500));
        assertThat(admin.getOperationTimeout()).isEqualTo(3);
        assertThat(admin.getConfigurationProperties())
                .containsEntry(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "k:9092")
                .containsEntry(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 4_000)
                .containsEntry(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 4_000);
    }

    @Test
    void aBoundTooLongForTheAdminsSettingsIsCutToWhatTheyCarry() {
        KafkaAdmin admin = PoolTopics.boundedAdmin(Map.of(), Duration.ofMillis(Long.MAX_VALUE));
        int seconds = Integer.MAX_VALUE / 1000 - 1;
        assertThat(admin.getOperationTimeout()).isEqualTo(seconds);
        assertThat(admin.getConfigurationProperties())
                .containsEntry(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, seconds * 1000 + 1000);
        assertThat(PoolTopics.boundedAdmin(Map.of(), Duration.ofMillis(1)).getOperationTimeout()).isEqualTo(1);
    }

    // the admin's defaults held such a call a minute: the limit fails it
    @Test
    @Timeout(value = 25, unit = TimeUnit.SECONDS)
    void withKafkaUnreachableTheFirstDispatchsTopicsGiveUpAndAreTriedAgainNextTime() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        KafkaAdmin admin = PoolTopics.boundedAdmin(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + closedPort), Duration.ofSeconds(1));
        PoolTopics pools = new PoolTopics(admin, new SwaleTopics("swale"), 1, (short) 1);

        assertThatThrownBy(() -> pools.ensure("etl")).isInstanceOf(KafkaException.class);
        // not remembered as created: the next dispatch asks again rather than sending to a topic never made
        assertThatThrownBy(() -> pools.ensure("etl")).isInstanceOf(KafkaException.class);
    }
}
