package io.swale.deploy;

import static io.swale.deploy.DeployEnvironments.list;
import static io.swale.deploy.DeployEnvironments.map;
import static io.swale.deploy.DeployEnvironments.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.swale.kafka.SwaleTopics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pool's KEDA scaler reads the lag of the group the pool's workers are in: the chart names the group and its
 * topic as the service does from the same topic prefix, or KEDA scales on a group nobody consumes in.
 */
class ChartConsumerGroupIT {
    private static Path helm;

    @BeforeAll
    static void findHelm() {
        helm = DeployEnvironments.helm().orElse(null);
        assumeTrue(helm != null, "helm is not installed: scripts/check-deploy.sh installs it (CI runs it first)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"swale.", "acme.", "swale-", "team_a_"})
    void theScalerWatchesTheGroupAndTopicThePoolsWorkersUse(String prefix) throws Exception {
        List<Map<String, Object>> docs = DeployEnvironments.helmTemplate(helm, "swale",
                "--set", "pools[0].name=etl", "--set", "pools[0].keda.enabled=true",
                "--set", "config.kafka.topicPrefix=" + prefix);
        Map<String, Object> scaler = object(docs, "ScaledObject", "swale-pool-etl");
        Map<String, Object> trigger = list(map(scaler, "spec"), "triggers").getFirst();
        SwaleTopics topics = new SwaleTopics(prefix);
        assertThat(map(trigger, "metadata")).containsEntry("consumerGroup", topics.poolGroup("etl"))
                .containsEntry("topic", topics.pool("etl"));
    }

    /** KEDA's Kafka scaler knows `plaintext`, `scram_sha256` and `scram_sha512`; `plain` made the scaler fail. */
    @ParameterizedTest
    @ValueSource(strings = {"PLAIN=plaintext", "SCRAM-SHA-256=scram_sha256", "SCRAM-SHA-512=scram_sha512"})
    void theScalersSaslModeIsOneKedaKnows(String mechanismAndMode) throws Exception {
        String[] parts = mechanismAndMode.split("=");
        List<Map<String, Object>> docs = DeployEnvironments.helmTemplate(helm, "swale",
                "--set", "pools[0].name=etl", "--set", "pools[0].keda.enabled=true", "--set", "kafka.sasl.enabled=true",
                "--set", "kafka.sasl.mechanism=" + parts[0], "--set", "kafka.sasl.username=u",
                "--set", "kafka.sasl.password=p");
        Map<String, Object> data = docs.stream().filter(d -> "Secret".equals(d.get("kind")))
                .map(d -> map(d, "data")).filter(d -> d.containsKey("keda-kafka-sasl")).findFirst().orElseThrow();
        assertThat(new String(java.util.Base64.getDecoder().decode((String) data.get("keda-kafka-sasl")),
                java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(parts[1]);
    }
}
