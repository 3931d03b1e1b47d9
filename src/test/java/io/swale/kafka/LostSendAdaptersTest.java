package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import io.swale.graph.Partition;
import io.swale.record.NodeStatus;
import io.swale.task.TaskIdentity;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.mock.MockProducerFactory;
import org.springframework.kafka.support.LoggingProducerListener;
import org.springframework.kafka.support.SendResult;

/** What the dispatcher and the event publisher do with a send Kafka refuses at once, or one not to try. */
class LostSendAdaptersTest {
    static final TaskIdentity ID = new TaskIdentity("g", Partition.of("p"), "a", Optional.empty(), "h", 0);
    static final SwaleTopics TOPICS = new SwaleTopics("t.");

    /** A template whose every send throws what it is given, and counts its calls; no producer is ever made. */
    static final class ThrowingTemplate extends KafkaTemplate<String, byte[]> {
        final AtomicInteger sends = new AtomicInteger();
        final RuntimeException error;

        ThrowingTemplate(RuntimeException error) {
            super(new DefaultKafkaProducerFactory<>(Map.of()));
            this.error = error;
        }

        @Override
        public CompletableFuture<SendResult<String, byte[]>> send(String topic, String key, byte[] data) {
            sends.incrementAndGet();
            throw error;
        }

        @Override
        public CompletableFuture<SendResult<String, byte[]>> send(ProducerRecord<String, byte[]> record) {
            sends.incrementAndGet();
            throw error;
        }
    }

    /** Records what it is told; says Kafka is away when asked to. */
    static final class Recorded implements LostSends {
        final List<String> lost = new CopyOnWriteArrayList<>();
        final boolean away;

        Recorded(boolean away) {
            this.away = away;
        }

        @Override
        public void lost(String kind, String topic, Throwable cause, boolean senderWaited) {
            lost.add(kind + " " + topic + " " + (cause == UNSENT ? "unsent" : cause.getClass().getSimpleName())
                    + (senderWaited ? " waited" : ""));
        }

        @Override
        public boolean kafkaAway(String topic) {
            return away;
        }
    }

    static final KafkaException NO_METADATA = new KafkaException("Send failed",
            new TimeoutException("Topic t.events not present in metadata after 10000 ms."));

    @Test
    void anEventKafkaRefusesAtOnceFailsNoCallerAndIsToldAsLost() {
        Recorded lost = new Recorded(false);
        new KafkaEventPublisher(new ThrowingTemplate(NO_METADATA), TOPICS, lost).taskTerminated(ID, NodeStatus.SUCCEEDED);
        assertThat(lost.lost).containsExactly("event t.events KafkaException waited");
    }

    @Test
    void anErrorThatIsNotKafkasStillFailsTheCaller() {
        Recorded lost = new Recorded(false);
        KafkaEventPublisher events = new KafkaEventPublisher(new ThrowingTemplate(new NullPointerException("bug")),
                TOPICS, lost);
        assertThatThrownBy(() -> events.taskTerminated(ID, NodeStatus.SUCCEEDED)).isInstanceOf(NullPointerException.class);
        assertThat(lost.lost).isEmpty();
    }

    @Test
    void whileKafkaIsAwayNothingIsTriedAndEachRecordIsToldAsLost() {
        Recorded lost = new Recorded(true);
        ThrowingTemplate template = new ThrowingTemplate(NO_METADATA);
        new KafkaEventPublisher(template, TOPICS, lost).taskTerminated(ID, NodeStatus.FAILED);
        // the pool's topics are not made either: PoolTopics would ask an admin client that has no broker
        new KafkaDispatcher(template, TOPICS, new PoolTopics(new KafkaAdmin(Map.of()), TOPICS, 1, (short) 1), lost)
                .dispatch("default", ID);
        assertThat(template.sends.get()).isZero();
        assertThat(lost.lost).containsExactly("event t.events unsent", "dispatch t.pool.default unsent");
    }

    @Test
    void aRecordLostAfterTheSendIsLoggedByTheSenderAloneNotAgainByTheTemplate() {
        Logger templateLog = (Logger) org.slf4j.LoggerFactory.getLogger(LoggingProducerListener.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        templateLog.addAppender(lines);
        try {
            Recorded lost = new Recorded(false);
            MockProducer<String, byte[]> first = producer();
            loseOneEvent(new KafkaTemplate<>(factory(first)), first, lost);
            assertThat(lines.list).as("a plain template logs the loss itself").hasSize(1);

            MockProducer<String, byte[]> second = producer();
            loseOneEvent(ReportedSends.template(factory(second)), second, lost);
            assertThat(lines.list).as("the reported sends' template does not").hasSize(1);
            assertThat(lost.lost).hasSize(2);
        } finally {
            templateLog.detachAppender(lines);
        }
    }

    private static MockProducer<String, byte[]> producer() {
        return new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
    }

    private static MockProducerFactory<String, byte[]> factory(MockProducer<String, byte[]> producer) {
        return new MockProducerFactory<>(() -> producer);
    }

    private static void loseOneEvent(KafkaTemplate<String, byte[]> template, MockProducer<String, byte[]> producer,
            LostSends lost) {
        new KafkaEventPublisher(template, TOPICS, lost).taskTerminated(ID, NodeStatus.SUCCEEDED);
        assertThat(producer.errorNext(new TimeoutException("expired in the accumulator"))).isTrue();
    }
}
