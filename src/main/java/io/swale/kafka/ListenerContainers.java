package io.swale.kafka;

import io.swale.run.UnloadableDefinitionException;
import io.swale.task.SwaleMetrics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BackOffHandler;
import org.springframework.kafka.listener.BatchAcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.ListenerContainerPauseService;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.backoff.BackOff;

/**
 * Builds the listener containers: record listeners whose permanent failures (by type) go to
 * {@code <topic>.DLT} at once, whose failures to reach Redis or Kafka are retried until they answer, and whose
 * other failures are retried a while first (see {@link ListenerFailure}).
 */
public final class ListenerContainers implements AutoCloseable {
    /** The header of a dead-lettered record that says why it could not be handled. */
    public static final String REASON_HEADER = "swale.error";
    /** How often a batch listener commits its offsets at most. */
    public static final java.time.Duration BATCH_COMMIT_INTERVAL = java.time.Duration.ofMillis(100);
    private final Map<String, Object> consumerProperties;
    private final KafkaTemplate<String, byte[]> template;
    private static final Logger log = LoggerFactory.getLogger(ListenerContainers.class);
    private final DeadLetterPublishingRecoverer recoverer;
    private final SwaleMetrics metrics;
    private final ListenerRetries retries;
    private final ThreadPoolTaskScheduler scheduler;

    public ListenerContainers(Map<String, Object> consumerProperties, KafkaTemplate<String, byte[]> template,
            SwaleMetrics metrics) {
        this.consumerProperties = Map.copyOf(consumerProperties);
        this.template = template;
        this.metrics = metrics;
        this.recoverer = newRecoverer();
        this.retries = new ListenerRetries(metrics);
        this.scheduler = new ThreadPoolTaskScheduler();
        scheduler.setThreadNamePrefix("swale-listener-retry-");
        scheduler.setDaemon(true);
        scheduler.initialize();
    }

    /** A record listener with dead letters: the handler's exception is classified by its type. */
    public ConcurrentMessageListenerContainer<String, byte[]> recordListener(String topic, String group, int concurrency,
            Consumer<ConsumerRecord<String, byte[]>> handler) {
        ContainerProperties props = new ContainerProperties(topic);
        props.setGroupId(group);
        props.setMessageListener((MessageListener<String, byte[]>) handler::accept);
        var container = new ConcurrentMessageListenerContainer<>(factory(Map.of()), props);
        container.setConcurrency(concurrency);
        container.setCommonErrorHandler(errorHandler());
        container.setBeanName("swale-" + topic);
        return container;
    }

    /**
     * A batch listener with dead letters: the handler names a failed record with a
     * {@link org.springframework.kafka.listener.BatchListenerFailedException} whose cause is classified by its
     * type like a record listener's exception. Offsets are committed asynchronously at most every
     * {@link #BATCH_COMMIT_INTERVAL} rather than after every poll: the handlers are idempotent, so a late commit
     * only means records seen again, and under load one commit covers many polls. A commit that fails (one
     * sent while the group rebalances) is sent again at the next poll by {@link RecommittingConsumer}.
     */
    public ConcurrentMessageListenerContainer<String, byte[]> batchListener(String topic, String group, int concurrency,
            Consumer<List<ConsumerRecord<String, byte[]>>> handler) {
        ContainerProperties props = new ContainerProperties(topic);
        props.setGroupId(group);
        props.setSyncCommits(false);
        props.setAckMode(ContainerProperties.AckMode.TIME);
        props.setAckTime(BATCH_COMMIT_INTERVAL.toMillis());
        props.setMessageListener((BatchMessageListener<String, byte[]>) handler::accept);
        var container = new ConcurrentMessageListenerContainer<>(factory(Map.of()), props);
        container.setConcurrency(concurrency);
        container.setCommonErrorHandler(errorHandler());
        container.setBeanName("swale-" + topic);
        return container;
    }

    /**
     * One consumer of a pool's dispatches, up to {@code batch} records a poll, committing nothing itself: the
     * listener claims what its free slots allow, commits those offsets without waiting for the broker — the
     * claim in Redis, not the offset, keeps a redelivered dispatch from running twice — seeks back to the
     * rest, and pauses while its executor is full.
     */
    public ConcurrentMessageListenerContainer<String, byte[]> dispatchListener(String topic, String group, int batch,
            BatchAcknowledgingConsumerAwareMessageListener<String, byte[]> listener) {
        ContainerProperties props = new ContainerProperties(topic);
        props.setGroupId(group);
        props.setAckMode(ContainerProperties.AckMode.MANUAL);
        props.setSyncCommits(false);
        // each failure of a poll in the class of its kind, so that its back-off is chosen again when the kind changes
        props.setMessageListener((BatchAcknowledgingConsumerAwareMessageListener<String, byte[]>) (records, ack,
                consumer) -> {
            try {
                listener.onMessage(records, ack, consumer);
            } catch (FailedDispatch e) {
                throw e;
            } catch (RuntimeException e) {
                throw FailedDispatch.of(e);
            }
        });
        // one commit per poll would queue up in the consumer under a steady feed: at most one in flight
        var container = new ConcurrentMessageListenerContainer<>(
                factory(Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, batch), RecommittingConsumer::coalescing), props);
        container.setConcurrency(1);
        container.setCommonErrorHandler(configured(new DispatchErrorHandler(this::recoverOrSkip, defaultBackOff(),
                backOffHandler())));
        container.setBeanName("swale-" + topic);
        return container;
    }

    /** Sends a record no listener can handle to {@code <topic>.DLT} with its reason, as the error handler would. */
    public void deadLetter(ConsumerRecord<String, byte[]> record, Exception reason) {
        recoverOrSkip(record, reason);
    }

    /**
     * Dead-letters a record. While Kafka does not take the letter (a timeout, a partition without a leader), the
     * failure is thrown, and the error handler delivers the record again after its back-off and tries again, so
     * nothing is lost to an outage; a letter no retry can send (too large even when fitted) is logged with its
     * record and let go, since throwing would retry it for ever and stall its partition.
     */
    private void recoverOrSkip(ConsumerRecord<?, ?> record, Exception reason) {
        try {
            recoverer.accept(record, reason);
        } catch (RuntimeException sendFailed) {
            if (ListenerFailure.isOutage(sendFailed)) {
                log.warn("record {}-{}@{} could not be dead-lettered yet and will be tried again: {}", record.topic(),
                        record.partition(), record.offset(), sendFailed.toString());
                throw sendFailed;
            }
            log.error("record {}-{}@{} could not be dead-lettered and is skipped (key {}, {} value bytes): {}; "
                    + "it failed with: {}", record.topic(), record.partition(), record.offset(),
                    FittingDeadLetters.cutText(String.valueOf(record.key()), 256),
                    record.value() instanceof byte[] b ? b.length : -1, sendFailed.toString(),
                    FittingDeadLetters.cutText(reason(reason), 1024));
        }
    }

    /** The consumer configuration a listener of this class gets, with the given overrides (the bench's baselines). */
    public Map<String, Object> consumerConfig(Map<String, Object> overrides) {
        return Map.copyOf(factory(overrides).getConfigurationProperties());
    }

    /**
     * Failures by {@link ListenerFailure}: a permanent one dead-letters its record at once; while Redis or Kafka
     * does not answer the record is retried (100 ms doubling to 5 s) until they do, never dead-lettered; other
     * failures are retried a while first. During an outage the container is paused between retries, not asleep,
     * so its consumers keep polling and stay in their group however long it lasts. A batch listener names the failed record
     * with a {@link org.springframework.kafka.listener.BatchListenerFailedException}; a batch that fails without
     * one (the dispatch listener's claim) is retried whole, polling between retries.
     */
    private DefaultErrorHandler errorHandler() {
        return configured(new DefaultErrorHandler(this::recoverOrSkip, defaultBackOff(), backOffHandler()));
    }

    private static BackOff defaultBackOff() {
        return ListenerRetries.exponential(ListenerRetries.UNKNOWN_BUDGET.toMillis(), ListenerRetries.MAX_SLEEP);
    }

    private BackOffHandler backOffHandler() {
        return ListenerRetries.waiting(new ListenerContainerPauseService(null, scheduler));
    }

    private <H extends DefaultErrorHandler> H configured(H handler) {
        handler.setBackOffFunction(retries::backOff);
        // a record's back-off starts again when its failure changes class: chosen anew for the new kind
        // (a batch listener's failures carry their kind in their class, FailedEvent and FailedDispatch)
        handler.setResetStateOnExceptionChange(true);
        // The handler finds these by type anywhere in the cause chain (a listener's exception arrives wrapped in
        // a ListenerExecutionFailedException, a batch listener's in a BatchListenerFailedException too).
        ListenerFailure.PERMANENT_TYPES.forEach(handler::addNotRetryableExceptions);
        return handler;
    }

    /** Stops the scheduler that resumes containers paused between retries. */
    @Override
    public void close() {
        scheduler.shutdown();
    }

    private DeadLetterPublishingRecoverer newRecoverer() {
        var recoverer = new FittingDeadLetters(template, (record, e) -> {
            metrics.deadLetter(SwaleTopics.deadLetter(record.topic()));
            return new TopicPartition(SwaleTopics.deadLetter(record.topic()), -1);
        });
        recoverer.setHeadersFunction((record, e) -> {
            Headers headers = new RecordHeaders();
            headers.add(REASON_HEADER, FittingDeadLetters.cutText(reason(e), FittingDeadLetters.MAX_HEADER_BYTES)
                    .getBytes(StandardCharsets.UTF_8));
            return headers;
        });
        return recoverer;
    }

    /**
     * Why the record failed: the message of the root cause, which is the Swale exception when there is one
     * (a Swale exception never carries a cause).
     */
    static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // its own message names the stored definition's hash; its cause's (a fault, a parser's error) names nothing
            if (t instanceof UnloadableDefinitionException) {
                return String.valueOf(t.getMessage());
            }
        }
        return String.valueOf(NestedExceptionUtils.getMostSpecificCause(e).getMessage());
    }

    private DefaultKafkaConsumerFactory<String, byte[]> factory(Map<String, Object> overrides) {
        return factory(overrides, RecommittingConsumer::wrap);
    }

    private DefaultKafkaConsumerFactory<String, byte[]> factory(Map<String, Object> overrides,
            UnaryOperator<org.apache.kafka.clients.consumer.Consumer<String, byte[]>> commits) {
        Map<String, Object> config = new java.util.HashMap<>(consumerProperties);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putAll(overrides);
        var factory = new DefaultKafkaConsumerFactory<String, byte[]>(config);
        // an asynchronous commit that fails (during a rebalance) is sent again at the next poll
        factory.addPostProcessor(commits::apply);
        return factory;
    }
}
