package io.swale.api.dashboard;

import io.swale.security.SwaleSecurityProperties;
import io.swale.settings.SwaleProperties;
import io.swale.store.RunIndex;
import io.swale.store.redis.RedisRunIndex;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.UnifiedJedis;

/**
 * The dashboard's read side: the run indexes it pages and watches. The security settings are bound here too,
 * since the console tells the page whether reads need a token, also in a process without a web server.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({DashboardProperties.class, SwaleSecurityProperties.class})
public class DashboardConfiguration {

    @Bean
    RunIndex runIndex(UnifiedJedis redis, SwaleProperties props) {
        return new RedisRunIndex(redis, props.redis().keyPrefix());
    }
}
