package io.swale.config.redis;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.swale.run.Reconciler;
import io.swale.settings.SwaleProperties;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/**
 * Redis as {@code spring.data.redis.*} describes it, checked once: the store's client, Spring Data's connection
 * factory on the same topology (ShedLock's locks, the health indicator), and the failover watch.
 */
@Configuration(proxyBeanMethods = false)
public class RedisTopologyConfiguration {
    private static final Logger log = LoggerFactory.getLogger(RedisTopologyConfiguration.class);

    /** How often each replica asks who the primaries are: a failover is acted on within about this long. */
    public static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);

    @Bean
    RedisConnectionSettings redisConnectionSettings(Environment env) {
        RedisConnectionSettings settings = RedisSettingsReader.read(env);
        log.info("redis topology=\"{}\" tls={}", settings.topology().describe(), settings.client().ssl());
        return settings;
    }

    @Bean
    RedisClientFactory redisClientFactory(RedisConnectionSettings settings, ObjectProvider<SslBundles> ssl) {
        return new RedisClientFactory(settings, Optional.ofNullable(ssl.getIfAvailable()));
    }

    /** Replaces Boot's own factory (it backs off), so ShedLock locks where the store writes. */
    @Bean
    JedisConnectionFactory redisConnectionFactory(RedisClientFactory clients) {
        return SpringRedisConnections.connectionFactory(clients);
    }

    @Bean
    JedisPrimaryProbe jedisPrimaryProbe(RedisClientFactory clients) {
        return new JedisPrimaryProbe(clients);
    }

    @Bean
    FailoverReconcile failoverReconcile(RedisConnectionSettings settings, Reconciler reconciler,
            LockingTaskExecutor locks, SwaleProperties props, ObjectProvider<MeterRegistry> registry) {
        return new FailoverReconcile(settings.topology().describe(), reconciler::passAfterFault, locks,
                () -> props.hasRole("scheduler"), registry.getIfAvailable(SimpleMeterRegistry::new),
                FailoverReconcile.DEFAULT_RETRY);
    }

    @Bean
    FailoverWatch failoverWatch(JedisPrimaryProbe probe, FailoverReconcile onFailover) {
        return new FailoverWatch(probe::probe, PROBE_INTERVAL, onFailover);
    }
}
