package io.swale.local;

import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Holds the context back, once its beans are built, until the embedded broker (started alongside them) serves.
 * Local mode registers it as the context's first bean definition, so its step runs before every other bean's
 * after-singletons step and before any lifecycle starts: nothing talks to Kafka through a timeout of its own.
 * Local mode has it wait for redis-server too (see {@link EmbeddedRedisGate}), so a failed redis-server fails
 * the start even in a context where no bean asks for Redis.
 */
final class EmbeddedKafkaGate implements SmartInitializingSingleton {
    static final String BEAN_NAME = "swaleEmbeddedKafkaGate";

    private final Runnable awaitBroker;

    EmbeddedKafkaGate(Runnable awaitBroker) {
        this.awaitBroker = awaitBroker;
    }

    @Override
    public void afterSingletonsInstantiated() {
        awaitBroker.run();
    }
}
