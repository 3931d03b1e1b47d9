package io.swale.local;

import io.swale.config.redis.RedisClientFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Holds back the {@link RedisClientFactory}, from which every Redis connection of the service is built, until the
 * embedded redis-server (started alongside the beans) serves; throws, naming redis-server, if it could not start.
 *
 * <p>A bean post-processor rather than an after-singletons step like {@link EmbeddedKafkaGate}: beans may connect
 * to Redis while they are built, and a post-processor added before the refresh sees the factory however early it
 * is asked for, before anyone else has it. Every other bean passes through untouched.
 */
final class EmbeddedRedisGate implements BeanPostProcessor {
    private final Runnable awaitRedis;

    EmbeddedRedisGate(Runnable awaitRedis) {
        this.awaitRedis = awaitRedis;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof RedisClientFactory) {
            awaitRedis.run();
        }
        return bean;
    }
}
