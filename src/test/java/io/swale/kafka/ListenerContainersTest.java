package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /** Was: the fault line alone, which named neither the graph's definition nor why it was read. */
    @Test
    void theReasonOfAStoredDefinitionThatNoLongerLoadsNamesItsHash() {
        var unloadable = new io.swale.run.UnloadableDefinitionException("3f2a",
                new IllegalArgumentException("node `a`: unknown operator `gone`"));
        assertThat(ListenerContainers.reason(new ListenerExecutionFailedException("Listener failed", unloadable)))
                .isEqualTo("stored definition `3f2a` no longer loads: node `a`: unknown operator `gone`");
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

    @Test
    void aLetterKafkaDoesNotTakeInTimeIsThrownSoItsRecordIsDeliveredAgain() {
        // as a real producer reports a send that timed out: through the callback and the future, not by throwing
        var producer = new MockProducer<String, byte[]>(true, null, new StringSerializer(), new ByteArraySerializer()) {
            @Override
            public synchronized java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> send(
                    org.apache.kafka.clients.producer.ProducerRecord<String, byte[]> record,
                    org.apache.kafka.clients.producer.Callback callback) {
                var timedOut = new org.apache.kafka.common.errors.TimeoutException("DLT partition has no leader");
                callback.onCompletion(null, timedOut);
                return java.util.concurrent.CompletableFuture.failedFuture(timedOut);
            }
        };
        ProducerFactory<String, byte[]> factory = () -> producer;
        var containers = new ListenerContainers(Map.of(), new KafkaTemplate<>(factory), SwaleMetrics.NONE);
        var record = new ConsumerRecord<String, byte[]>("swale.triggers", 0, 7, "g", new byte[] {1});
        // skipped, the trigger would be lost to an outage: the error handler's retry sends the letter once Kafka can
        assertThatThrownBy(() -> containers.deadLetter(record, new SwaleException.UnknownGraph("nope")))
                .satisfies(e -> assertThat(ListenerFailure.isOutage(e)).isTrue());
    }
}
