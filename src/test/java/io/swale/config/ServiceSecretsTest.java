package io.swale.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.AbstractEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Which values of the service's configuration no task may see, whatever the variable holding them is called. */
class ServiceSecretsTest {
    @Test
    void passwordsTokensKeysJaasAndUrlsWithPasswordsOfTheServicesOwnPropertiesAreSecrets() {
        // no source of the process's own: the test must not depend on the environment it runs in
        AbstractEnvironment environment = new AbstractEnvironment() { };
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"kpw\";";
        environment.getPropertySources().addFirst(new MapPropertySource("config", Map.of(
                "swale.security.token", "the-admin-token",
                "spring.data.redis.url", "redis://user:pw1@redis:6379",
                "spring.data.redis.password", "${REDIS_PW}",
                "spring.kafka.properties.sasl.jaas.config", jaas,
                "spring.kafka.jaas.options.password", "jaas-option-pw",
                "spring.kafka.ssl.key-store-key", "-----BEGIN PRIVATE KEY-----",
                "spring.kafka.ssl.key-store-type", "PKCS12",
                "spring.security.oauth2.client.provider.x.token-uri", "https://idp/token",
                "spring.kafka.bootstrap-servers", "kafka:9092",
                "warehouse.password", "the task's own")));
        environment.getPropertySources().addFirst(new SystemEnvironmentPropertySource("env", Map.of(
                "REDIS_PW", "from-the-environment",
                "SWALE_SECURITY_TOKEN", "env-token",
                "SPRING_KAFKA_SSL_KEY_STORE_TYPE", "JKS",
                "WAREHOUSE_TOKEN", "also the task's own")));

        assertThat(ServiceSecrets.of(environment)).containsExactlyInAnyOrder("the-admin-token", "pw1",
                "redis://user:pw1@redis:6379", "from-the-environment", "kpw", jaas, "jaas-option-pw",
                "-----BEGIN PRIVATE KEY-----", "env-token");
    }

    @Test
    void aSecretNameInEverySpellingAndNotANameThatOnlyDescribesOne() {
        for (String name : java.util.List.of("spring.kafka.ssl.key-store-password", "spring.kafka.ssl.keystorepassword",
                "spring.kafka.ssl.keystorepassword", "spring.kafka.ssl.keystorekey", "spring.kafka.ssl.key-store-key",
                "spring.security.oauth2.client.registration.x.clientsecret", "swale.security.token", "swale.api-key",
                "spring.ssl.bundle.pem.x.keystore.passphrase")) {
            assertThat(ServiceSecrets.isSecretName(name)).as(name).isTrue();
        }
        for (String name : java.util.List.of("spring.kafka.ssl.key-store-type", "spring.kafka.ssl.keystoretype",
                "spring.security.oauth2.client.provider.x.token-uri", "swale.redis.key-prefix",
                "spring.kafka.producer.key-serializer", "spring.kafka.consumer.key-deserializer",
                "spring.kafka.bootstrap-servers", "spring.data.redis.host",
                "spring.security.oauth2.authorizationserver.client.x.token.access-token-time-to-live")) {
            assertThat(ServiceSecrets.isSecretName(name)).as(name).isFalse();
        }
    }

    @Test
    void aPropertyThatCannotBeResolvedIsSkippedAndTheOthersOfItsSourceStillCount() {
        AbstractEnvironment environment = new AbstractEnvironment() { };
        environment.getPropertySources().addFirst(new MapPropertySource("config", new java.util.TreeMap<>(Map.of(
                "spring.a.password", "${spring.a.password}",
                "spring.b.password", "b-secret"))));

        assertThat(ServiceSecrets.of(environment)).contains("b-secret");
    }
}
