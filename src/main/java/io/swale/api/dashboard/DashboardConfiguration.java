package io.swale.api.dashboard;

import io.swale.settings.SwaleProperties;
import io.swale.store.RunIndex;
import io.swale.store.redis.RedisRunIndex;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.JedisPool;

/** The dashboard's read side: the run indexes it pages and watches. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DashboardProperties.class)
public class DashboardConfiguration {

    @Bean
    RunIndex runIndex(JedisPool pool, SwaleProperties props) {
        return new RedisRunIndex(pool, props.redis().keyPrefix());
    }
}
