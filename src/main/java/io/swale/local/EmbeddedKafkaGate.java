package io.swale.local;

import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Holds the context back, once its beans are built, until the embedded broker (started alongside them) serves.
 * Local mode registers it as the context's first bean definition, so its step runs before every other bean's
 * after-singletons step and before any lifecycle starts: nothing talks to Kafka through a timeout of its own.
 * A plain definition with its wait injected, so that the build's AOT step writes it where it stands, first: a start
 * from those definitions registers them all before any initializer runs.
 * Local mode has it wait for redis-server too (see {@link EmbeddedRedisGate}), so a failed redis-server fails
 * the start even in a context where no bean asks for Redis.
 */
final class EmbeddedKafkaGate implements SmartInitializingSingleton {
    static final String BEAN_NAME = "swaleEmbeddedKafkaGate";

    /** The singleton the gate waits with, registered by local mode's initializer at every start. */
    static final String WAIT_BEAN_NAME = "swaleEmbeddedServersWait";

    /** Blocks until the embedded servers serve; throws, naming the one that could not start. */
    @FunctionalInterface
    interface Wait {
        void await();
    }

    private final Wait wait;

    EmbeddedKafkaGate(Wait wait) {
        this.wait = wait;
    }

    @Override
    public void afterSingletonsInstantiated() {
        wait.await();
    }
}
