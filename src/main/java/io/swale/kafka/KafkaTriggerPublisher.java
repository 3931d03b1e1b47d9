package io.swale.kafka;

import io.swale.cron.Firing;
import io.swale.trigger.TriggerHeaders;
import io.swale.trigger.TriggerPublisher;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;

/** Cron firings on {@code swale.triggers}: key = graph, empty value, the firing in headers. */
public final class KafkaTriggerPublisher implements TriggerPublisher {
    private static final long SEND_TIMEOUT_MS = 10_000;
    private final KafkaTemplate<String, byte[]> template;
    private final SwaleTopics topics;

    public KafkaTriggerPublisher(KafkaTemplate<String, byte[]> template, SwaleTopics topics) {
        this.template = template;
        this.topics = topics;
    }

    @Override
    public void publish(String graph, Firing firing) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.triggers(), graph, new byte[0]);
        record.headers().add(TriggerHeaders.GRAPH, bytes(graph));
        record.headers().add(TriggerHeaders.FIRE_MS, bytes(Long.toString(firing.fireMs())));
        firing.previousFireMs().ifPresent(p -> record.headers().add(TriggerHeaders.PREVIOUS_FIRE_MS, bytes(Long.toString(p))));
        try {
            // The watermark advances only after the broker has the firing.
            template.send(record).get(SEND_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending the firing of graph `" + graph + "`", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the firing of graph `" + graph + "` was not sent: " + e, e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
