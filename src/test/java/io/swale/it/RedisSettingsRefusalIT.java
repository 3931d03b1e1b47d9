package io.swale.it;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.SwaleApplication;
import io.swale.config.redis.InvalidRedisSettingsException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;

/** A Redis setting Swale cannot honour stops the start, and the message names it; nothing connects first. */
class RedisSettingsRefusalIT {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--spring.data.redis.sentinel.master=m --spring.data.redis.sentinel.nodes=127.0.0.1:1 --spring.data.redis.cluster.nodes=127.0.0.1:2"
                    + "|spring.data.redis.cluster.nodes",
            "--spring.data.redis.url=redis://127.0.0.1:1 --spring.data.redis.host=127.0.0.1|url and spring.data.redis.host",
            "--spring.data.redis.lettuce.read-from=replica|spring.data.redis.lettuce.read-from",
            "--spring.data.redis.hots=127.0.0.1|spring.data.redis.hots",
            "--spring.data.redis.cluster.nodes=127.0.0.1:1 --spring.data.redis.database=3|database=3 with cluster.nodes"})
    void startUpStopsNamingTheSetting(String args, String named) {
        SpringApplication app = new SpringApplication(SwaleApplication.class);
        app.setRegisterShutdownHook(false);
        String[] all = (args + " --server.port=0 --spring.kafka.bootstrap-servers=127.0.0.1:1 --swale.embedded=false"
                + " --swale.examples=").split(" ");
        assertThatThrownBy(() -> app.run(all).close()).rootCause()
                .isInstanceOf(InvalidRedisSettingsException.class).hasMessageContaining(named);
    }
}
