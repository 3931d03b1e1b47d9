package io.swale.kafka;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * A send whose loss is reported, never thrown: the dispatcher's and the event publisher's. Nothing is tried while
 * the topic is away; a send Kafka refuses at once (no metadata within {@code max.block.ms}) and a record that
 * expires later are both logged by the caller's {@code notSent} and told to {@link LostSends}.
 */
public final class ReportedSends {
    private static final Logger log = LoggerFactory.getLogger(ReportedSends.class);

    private ReportedSends() {}

    /**
     * The template of reported sends: the shared producer, without the template's default listener, which would
     * log each lost record once more, at ERROR and with its payload, beside the sender's own line; and without
     * its per-send timer ({@code spring.kafka.template}), a meter per record on the hot path where Swale's own
     * ready → submitted and submitted → started timers already say how long a dispatch takes.
     */
    public static KafkaTemplate<String, byte[]> template(ProducerFactory<String, byte[]> producers) {
        KafkaTemplate<String, byte[]> template = new KafkaTemplate<>(producers);
        template.setProducerListener(null);
        template.setMicrometerEnabled(false);
        return template;
    }

    static void send(LostSends lost, String kind, String topic, Supplier<CompletableFuture<?>> send,
            Consumer<Throwable> notSent) {
        if (lost.kafkaAway(topic)) {
            log.debug("{} not tried, Kafka is unreachable topic={}", kind, topic);
            lost.lost(kind, topic, LostSends.UNSENT, false);
            return;
        }
        CompletableFuture<?> sent;
        try {
            sent = send.get();
        } catch (org.springframework.kafka.KafkaException | org.apache.kafka.common.KafkaException e) {
            notSent.accept(e);
            lost.lost(kind, topic, e, true);
            return;
        }
        sent.whenComplete((r, e) -> {
            if (e != null) {
                notSent.accept(e);
                lost.lost(kind, topic, e, false);
            }
        });
    }
}
