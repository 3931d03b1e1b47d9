package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.task.SwaleException;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;

class ListenerContainersTest {
    @Test
    void theReasonOfAWrappedSwaleExceptionIsItsMessage() {
        var malformed = new SwaleException.Malformed("not a task-terminated event");
        assertThat(ListenerContainers.reason(new ListenerExecutionFailedException("Listener failed", malformed)))
                .isEqualTo("not a task-terminated event");
        assertThat(ListenerContainers.reason(new ListenerExecutionFailedException("Listener failed",
                new BatchListenerFailedException("x", malformed, 0)))).isEqualTo("not a task-terminated event");
        assertThat(ListenerContainers.reason(malformed)).isEqualTo("not a task-terminated event");
    }

    @Test
    void otherwiseTheReasonIsTheRootCause() {
        assertThat(ListenerContainers.reason(new ListenerExecutionFailedException("Listener failed",
                new IllegalStateException("outer", new java.io.IOException("connection reset")))))
                .isEqualTo("connection reset");
    }
}
