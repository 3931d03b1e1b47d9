package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.swale.task.SwaleException;
import io.swale.task.SwaleMetrics;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
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

    @Test
    void aLetterThatCannotBeSentIsLoggedAndSkippedNotRetried() {
        var producer = new MockProducer<String, byte[]>(true, null, new StringSerializer(), new ByteArraySerializer());
        producer.sendException = new RecordTooLargeException("the letter is over max.request.size");
        ProducerFactory<String, byte[]> factory = () -> producer;
        var containers = new ListenerContainers(Map.of(), new KafkaTemplate<>(factory), SwaleMetrics.NONE);
        var record = new ConsumerRecord<String, byte[]>("swale.triggers", 0, 7, "g", new byte[] {1});
        // throwing here would make the error handler retry the record for ever, stalling its partition
        assertThatCode(() -> containers.deadLetter(record, new SwaleException.Malformed("bad"))).doesNotThrowAnyException();
    }
}
