package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A task sees the worker's environment without the service's own credentials, which the chart puts there. */
class TaskEnvironmentTest {
    @Test
    void theServicesCredentialsAreLeftOutAndEverythingElseKept() {
        Map<String, String> task = TaskEnvironment.of(Map.of(
                "SWALE_SECURITY_TOKEN", "admin",
                "SPRING_DATA_REDIS_PASSWORD", "r",
                "SPRING_DATA_REDIS_SENTINEL_PASSWORD", "s",
                "SWALE_KAFKA_SASL_PASSWORD", "k",
                "SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG", "... password=\"k\";",
                "SPRING_KAFKA_SSL_KEY_PASSWORD", "x",
                "PATH", "/usr/bin",
                "WAREHOUSE_PASSWORD", "the task's own",
                "SWALE_KAFKA_SASL_USERNAME", "swale",
                "SWALE_WORKER_POOLS", "default=4"));

        assertThat(task).containsOnlyKeys("PATH", "WAREHOUSE_PASSWORD", "SWALE_KAFKA_SASL_USERNAME", "SWALE_WORKER_POOLS");
    }

    @Test
    void aVariableThatHoldsAServiceSecretIsLeftOutWhateverItsName() {
        Map<String, String> task = TaskEnvironment.of(Map.of(
                "REDIS_URL", "redis://:longer-secret@redis:6379",
                "ADMIN", "tok",
                "SHORT_INSIDE", "a tok in a sentence",
                "PATH", "/usr/bin"), List.of("longer-secret", "tok", ""));

        assertThat(task).as("a secret under 8 characters is left out only where it is the whole value")
                .containsOnlyKeys("SHORT_INSIDE", "PATH");
    }
}
