package io.swale.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.swale.kafka.DeadLetterBrowser;
import io.swale.kafka.KafkaInspector;
import io.swale.kafka.SwaleTopics;
import io.swale.metrics.ConsumerLagMonitor;
import io.swale.request.Requests;
import io.swale.run.GraphRuns;
import io.swale.run.RunCancellation;
import io.swale.run.RunReruns;
import io.swale.settings.OpsProperties;
import io.swale.settings.SwaleProperties;
import io.swale.store.RequestStore;
import io.swale.store.RunStore;
import io.swale.store.redis.RedisRequestStore;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;
import redis.clients.jedis.UnifiedJedis;

/** What operators use: request records, Kafka inspection, dead-letter browsing, consumer-lag gauges. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OpsProperties.class)
public class OpsConfiguration {

    @Bean
    RequestStore requestStore(UnifiedJedis redis, SwaleProperties props) {
        return new RedisRequestStore(redis, props.redis().keyPrefix(), props.retentionPeriod());
    }

    @Bean(destroyMethod = "close")
    Requests requests(GraphRuns graphRuns, RunReruns reruns, RunCancellation cancellation, RequestStore store,
            RunStore runs, Clock clock) {
        return new Requests(graphRuns, reruns, cancellation, store, runs, clock);
    }

    @Bean(destroyMethod = "close")
    KafkaInspector kafkaInspector(KafkaAdmin admin, OpsProperties ops) {
        return new KafkaInspector(admin.getConfigurationProperties(), ops.kafkaTimeout());
    }

    @Bean
    DeadLetterBrowser deadLetterBrowser(KafkaProperties kafka, KafkaInspector inspector, OpsProperties ops) {
        return new DeadLetterBrowser(kafka.buildConsumerProperties(), inspector, ops.kafkaTimeout());
    }

    @Bean
    ConsumerLagMonitor consumerLagMonitor(KafkaInspector inspector, SwaleTopics topics, ConfiguredPools pools,
            ObjectProvider<MeterRegistry> registry, OpsProperties ops) {
        return new ConsumerLagMonitor(inspector, topics, pools,
                registry.getIfAvailable(io.micrometer.core.instrument.simple.SimpleMeterRegistry::new), ops.lagInterval());
    }
}
