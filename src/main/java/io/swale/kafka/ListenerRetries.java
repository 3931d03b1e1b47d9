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
            case UNAVAILABLE -> counted(record.topic(), kind, failure, exponential(Long.MAX_VALUE));
            case CATCHING_UP -> counted(record.topic(), kind, failure, exponential(CATCH_UP_BUDGET.toMillis()));
            case UNKNOWN -> counted(record.topic(), kind, failure, exponential(UNKNOWN_BUDGET.toMillis()));
        };
    }

    /** 100 ms, 200 ms, … 5 s, 5 s, … until the delays add up to {@code budgetMs}. */
    static ExponentialBackOff exponential(long budgetMs) {
        ExponentialBackOff backOff = new ExponentialBackOff(FIRST_DELAY.toMillis(), 2.0);
        backOff.setMaxInterval(MAX_DELAY.toMillis());
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
