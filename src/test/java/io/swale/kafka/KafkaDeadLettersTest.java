package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.task.DeadLetters;
import io.swale.task.SwaleMetrics;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.mock.MockProducerFactory;

/**
 * A dead-letter copy's send returns once the broker has it: until then its instance owes it. A copy the broker
 * refuses for itself is undeliverable (given up); one Kafka could not take now is sent again later.
 */
class KafkaDeadLettersTest {
    private final MockProducer<String, byte[]> producer = new MockProducer<>(false, null, new StringSerializer(),
            new ByteArraySerializer());
    private final KafkaDeadLetters letters = new KafkaDeadLetters(
            new KafkaTemplate<>(new MockProducerFactory<>(() -> producer)), LostSendAdaptersTest.TOPICS,
            Clock.systemUTC(), SwaleMetrics.NONE);

    private CompletableFuture<Void> sending() {
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> letters.send(new DeadLetters.DeadLetter(
                "default", LostSendAdaptersTest.ID, 3, 3, "gave up", List.of())));
        await().until(() -> producer.history().size() == 1);
        return sent;
    }

    @Test
    void aSendReturnsOnlyOnceTheBrokerHasTheCopy() {
        CompletableFuture<Void> sent = sending();
        assertThat(sent).as("not acknowledged yet").isNotDone();
        assertThat(producer.completeNext()).isTrue();
        sent.join();
        assertThat(producer.history().getFirst().topic()).isEqualTo("t.pool.default.DLT");
    }

    @Test
    void aCopyTheBrokerRefusesForItselfIsUndeliverable() {
        CompletableFuture<Void> sent = sending();
        assertThat(producer.errorNext(new RecordTooLargeException("the record is too large"))).isTrue();
        assertThat(sent).failsWithin(java.time.Duration.ofSeconds(5)).withThrowableThat()
                .havingCause().isInstanceOf(DeadLetters.Undeliverable.class).withMessageContaining("too large");
    }

    @Test
    void aCopyKafkaCouldNotTakeNowIsNotUndeliverable() {
        CompletableFuture<Void> sent = sending();
        assertThat(producer.errorNext(new TimeoutException("expired in the accumulator"))).isTrue();
        assertThat(sent).failsWithin(java.time.Duration.ofSeconds(5)).withThrowableThat()
                .havingCause().isInstanceOf(IllegalStateException.class).isNotInstanceOf(DeadLetters.Undeliverable.class)
                .withMessageContaining("expired in the accumulator");
    }
}
