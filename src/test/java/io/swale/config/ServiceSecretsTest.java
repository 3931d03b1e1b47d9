package io.swale.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Which values of the service's configuration no task may see, whatever the variable holding them is called. */
class ServiceSecretsTest {
    @Test
    void passwordsTokensJaasAndUrlUserInfoOfTheServicesOwnPropertiesAreSecrets() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("config", Map.of(
                "swale.security.token", "the-admin-token",
                "spring.data.redis.url", "redis://user:url-password@redis:6379",
                "spring.data.redis.password", "${REDIS_PW}",
                "spring.kafka.properties.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"kafka-pw\";",
                "spring.kafka.bootstrap-servers", "kafka:9092",
                "warehouse.password", "the task's own")));
        environment.getPropertySources().addFirst(new SystemEnvironmentPropertySource("env", Map.of(
                "REDIS_PW", "from-the-environment",
                "SWALE_SECURITY_TOKEN", "env-token",
                "WAREHOUSE_TOKEN", "also the task's own")));

        assertThat(ServiceSecrets.of(environment)).containsExactlyInAnyOrder("the-admin-token", "url-password",
                "from-the-environment", "kafka-pw", "env-token");
    }
}
