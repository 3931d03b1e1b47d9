package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.support.GenericApplicationContext;

/** The order local mode relies on: the gate, registered first, waits before any other bean's step runs. */
class EmbeddedKafkaGateTest {

    @Test
    void theGateRunsBeforeEveryOtherAfterSingletonsStepAndEveryLifecycleStart() {
        List<String> order = new CopyOnWriteArrayList<>();
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.registerBean(EmbeddedKafkaGate.BEAN_NAME, EmbeddedKafkaGate.class,
                    () -> new EmbeddedKafkaGate(() -> order.add("gate")));
            context.registerBean("topics", SmartInitializingSingleton.class, () -> () -> order.add("topics"));
            context.registerBean("listeners", SmartLifecycle.class, () -> new StartRecorder(order));
            context.refresh();
        }
        assertThat(order).containsExactly("gate", "topics", "listeners");
    }

    @Test
    void aBrokerThatCannotStartFailsTheContextBeforeAnyOtherStep() {
        List<String> order = new CopyOnWriteArrayList<>();
        GenericApplicationContext context = new GenericApplicationContext();
        context.registerBean(EmbeddedKafkaGate.BEAN_NAME, EmbeddedKafkaGate.class, () -> new EmbeddedKafkaGate(() -> {
            throw new IllegalStateException("cannot start the embedded Kafka node");
        }));
        context.registerBean("topics", SmartInitializingSingleton.class, () -> () -> order.add("topics"));
        assertThatThrownBy(context::refresh).hasMessageContaining("cannot start the embedded Kafka node");
        assertThat(order).isEmpty();
    }

    private static final class StartRecorder implements SmartLifecycle {
        private final List<String> order;
        private volatile boolean running;

        StartRecorder(List<String> order) {
            this.order = order;
        }

        @Override
        public void start() {
            order.add("listeners");
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }
    }
}
