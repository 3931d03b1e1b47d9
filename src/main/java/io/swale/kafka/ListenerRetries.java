package io.swale.kafka;

import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.kafka.listener.BackOffHandler;
import org.springframework.kafka.listener.ContainerPausingBackOffHandler;
import org.springframework.kafka.listener.DefaultBackOffHandler;
import org.springframework.kafka.listener.ListenerContainerPauseService;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The back-off of a failed record, by its {@link ListenerFailure}: every retry is counted
 * ({@code swale.listener.retries}) and logged, at most once per {@link #LOG_EVERY} and topic.
 */
final class ListenerRetries {
    private static final Logger log = LoggerFactory.getLogger(ListenerRetries.class);

    /** The first retry's delay; each next one doubles, up to {@link #MAX_DELAY}. */
    static final Duration FIRST_DELAY = Duration.ofMillis(100);
    static final Duration MAX_DELAY = Duration.ofSeconds(5);
    /**
     * The longest delay of a failure that is not an outage: its consumer thread sleeps through it, so it stays
     * well under any max.poll.interval.ms.
     */
    static final Duration MAX_SLEEP = Duration.ofSeconds(1);
    /** How long a record of a run whose state is catching up is retried before it is dead-lettered. */
    static final Duration CATCH_UP_BUDGET = Duration.ofSeconds(30);
    /** How long a record failing for an unknown reason is retried before it is dead-lettered. */
    static final Duration UNKNOWN_BUDGET = Duration.ofSeconds(3);
    static final Duration LOG_EVERY = Duration.ofSeconds(10);

    private static final BackOff NONE = new FixedBackOff(0, 0);

    private final SwaleMetrics metrics;
    private final Map<String, AtomicLong> lastLogged = new ConcurrentHashMap<>();

    ListenerRetries(SwaleMetrics metrics) {
        this.metrics = metrics;
    }

    /** The back-off for {@code record} failing with {@code failure}: none at all for a permanent failure. */
    BackOff backOff(ConsumerRecord<?, ?> record, Exception failure) {
        ListenerFailure kind = ListenerFailure.of(failure);
        return switch (kind) {
            case PERMANENT -> NONE;
            case UNAVAILABLE -> counted(record.topic(), kind, failure, exponential(Long.MAX_VALUE, MAX_DELAY));
            case CATCHING_UP -> counted(record.topic(), kind, failure,
                    exponential(CATCH_UP_BUDGET.toMillis(), MAX_SLEEP));
            case UNKNOWN -> counted(record.topic(), kind, failure, exponential(UNKNOWN_BUDGET.toMillis(), MAX_SLEEP));
        };
    }

    /**
     * How a listener waits out a delay. An outage pauses the whole container: its consumers keep polling, so
     * they stay in their group however long it lasts, and every one of them waits for the same Redis anyway.
     * Any other failure sleeps its own consumer thread only, so one record never holds up the container's other
     * partitions.
     */
    static BackOffHandler waiting(ListenerContainerPauseService pauser) {
        BackOffHandler pause = new ContainerPausingBackOffHandler(pauser);
        BackOffHandler sleep = new DefaultBackOffHandler();
        return new BackOffHandler() {
            @Override
            public void onNextBackOff(MessageListenerContainer container, Exception exception, long nextBackOff) {
                boolean outage = exception != null && ListenerFailure.of(exception) == ListenerFailure.UNAVAILABLE;
                (outage && container != null ? pause : sleep).onNextBackOff(container, exception, nextBackOff);
            }
        };
    }

    /** 100 ms, 200 ms, … up to {@code maxDelay} each, until the delays add up to {@code budgetMs}. */
    static ExponentialBackOff exponential(long budgetMs, Duration maxDelay) {
        ExponentialBackOff backOff = new ExponentialBackOff(FIRST_DELAY.toMillis(), 2.0);
        backOff.setMaxInterval(maxDelay.toMillis());
        backOff.setMaxElapsedTime(budgetMs);
        backOff.setMaxAttempts(Long.MAX_VALUE);
        return backOff;
    }

    private BackOff counted(String topic, ListenerFailure kind, Exception failure, BackOff delegate) {
        String cause = kind.name().toLowerCase(java.util.Locale.ROOT);
        return () -> {
            BackOffExecution execution = delegate.start();
            AtomicLong attempts = new AtomicLong();
            return () -> {
                long next = execution.nextBackOff();
                if (next != BackOffExecution.STOP) {
                    metrics.listenerRetry(topic, cause);
                    logRateLimited(topic, cause, attempts.incrementAndGet(), next, failure);
                }
                return next;
            };
        };
    }

    private void logRateLimited(String topic, String cause, long attempt, long nextMs, Exception failure) {
        long now = System.nanoTime();
        AtomicLong last = lastLogged.computeIfAbsent(topic, t -> new AtomicLong(now - LOG_EVERY.toNanos()));
        long before = last.get();
        if (now - before >= LOG_EVERY.toNanos() && last.compareAndSet(before, now)) {
            log.warn("listener retries a record topic={} cause={} attempt={} next_in_ms={} error={}", topic, cause,
                    attempt, nextMs, String.valueOf(NestedExceptionUtils.getMostSpecificCause(failure)));
        }
    }
}
