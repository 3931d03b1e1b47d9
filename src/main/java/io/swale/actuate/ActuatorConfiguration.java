package io.swale.actuate;

import io.swale.api.PoolViews;
import io.swale.config.ConfiguredPools;
import io.swale.kafka.KafkaInspector;
import io.swale.roles.PoolRole;
import io.swale.settings.SwaleProperties;
import io.swale.store.RunStore;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The Kafka health indicator (readiness group), info contributor and the swale endpoint. */
@Configuration(proxyBeanMethods = false)
public class ActuatorConfiguration {

    @Bean
    KafkaHealthIndicator kafkaHealthIndicator(KafkaInspector kafka) {
        return new KafkaHealthIndicator(kafka);
    }

    @Bean
    SwaleInfoContributor swaleInfoContributor(SwaleProperties props, ConfiguredPools pools,
            ObjectProvider<BuildProperties> build) {
        return new SwaleInfoContributor(props, pools, Optional.ofNullable(build.getIfAvailable()));
    }

    @Bean
    SwaleEndpoint swaleEndpoint(RunStore runs, PoolViews poolViews, ConfiguredPools pools, PoolRole poolRole,
            SwaleProperties props) {
        return new SwaleEndpoint(runs, poolViews, pools, poolRole, props);
    }
}
