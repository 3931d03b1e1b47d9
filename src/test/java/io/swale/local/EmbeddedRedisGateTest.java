package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.config.redis.RedisClientFactory;
import io.swale.config.redis.RedisSettingsReader;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.StandardEnvironment;

/** The order local mode relies on: nothing gets the Redis client factory before redis-server serves. */
class EmbeddedRedisGateTest {

    /** A bean that would connect to Redis as it is built, as a store may. */
    record Store(RedisClientFactory clients) {
    }

    private static GenericApplicationContext context(List<String> order, Runnable awaitRedis) {
        GenericApplicationContext context = new GenericApplicationContext();
        // as LocalModeInitializer adds it: before the refresh
        context.getBeanFactory().addBeanPostProcessor(new EmbeddedRedisGate(awaitRedis));
        context.registerBean("unrelated", String.class, () -> {
            order.add("unrelated");
            return "x";
        });
        context.registerBean(RedisClientFactory.class, () -> new RedisClientFactory(
                RedisSettingsReader.read(new StandardEnvironment()), Optional.empty()));
        context.registerBean(Store.class, () -> {
            Store store = new Store(context.getBean(RedisClientFactory.class));
            order.add("store");
            return store;
        });
        return context;
    }

    @Test
    void theClientFactoryIsHandedOutOnlyOnceRedisServes() {
        List<String> order = new CopyOnWriteArrayList<>();
        try (GenericApplicationContext context = context(order, () -> order.add("redis-server awaited"))) {
            context.refresh();
        }
        assertThat(order).containsExactly("unrelated", "redis-server awaited", "store");
    }

    @Test
    void aRedisServerThatCannotStartFailsTheContextNamingIt() {
        List<String> order = new CopyOnWriteArrayList<>();
        GenericApplicationContext context = context(order, () -> {
            throw new IllegalStateException("cannot start the embedded redis-server at 127.0.0.1:1: it died");
        });
        assertThatThrownBy(context::refresh).rootCause()
                .hasMessageContaining("cannot start the embedded redis-server at 127.0.0.1:1");
        assertThat(order).containsExactly("unrelated");
    }
}
