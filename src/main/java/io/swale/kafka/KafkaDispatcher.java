package io.swale.kafka;

import io.swale.task.Dispatcher;
import io.swale.task.TaskIdentity;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/** Dispatches to {@code swale.pool.<pool>}, keyed by run id, identity in headers. */
public final class KafkaDispatcher implements Dispatcher {
    private static final Logger log = LoggerFactory.getLogger(KafkaDispatcher.class);
    private final KafkaTemplate<String, byte[]> template;
    private final SwaleTopics topics;
    private final PoolTopics poolTopics;
    private final LostSends lost;

    public KafkaDispatcher(KafkaTemplate<String, byte[]> template, SwaleTopics topics, PoolTopics poolTopics,
            LostSends lost) {
        this.template = template;
        this.topics = topics;
        this.poolTopics = poolTopics;
        this.lost = lost;
    }

    @Override
    public void dispatch(String pool, TaskIdentity identity) {
        // a lost dispatch leaves a pending instance, which a repair pass dispatches again
        String topic = topics.pool(pool);
        ReportedSends.send(lost, "dispatch", topic, () -> send(topic, pool, identity), e -> log.warn(
                "dispatch not sent runId={} pool={} error={}", identity.runId(), pool, e.toString()));
    }

    /**
     * Waits for the broker's acknowledgement of this one record, at most {@code timeout}. The flush makes a
     * lingering record go now (a user may set {@code linger.ms}); it runs on another thread because it waits for
     * everything the shared producer buffers, which may take longer than {@code timeout} while Kafka is down.
     */
    @Override
    public void dispatchNow(String pool, TaskIdentity identity, Duration timeout) {
        CompletableFuture<?> sent = send(topics.pool(pool), pool, identity);
        CompletableFuture.runAsync(template::flush);
        try {
            sent.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("dispatch of " + identity.runId() + " interrupted before it was sent", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("dispatch of " + identity.runId() + " to pool " + pool
                    + " not acknowledged within " + timeout + ": " + e, e);
        }
    }

    private CompletableFuture<?> send(String topic, String pool, TaskIdentity identity) {
        poolTopics.ensure(pool);
        String runId = identity.runId();
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, runId,
                ("{\"run_id\":\"" + runId + "\"}").getBytes(StandardCharsets.UTF_8));
        identity.headers().forEach((k, v) -> record.headers().add(k, v));
        return template.send(record);
    }
}
