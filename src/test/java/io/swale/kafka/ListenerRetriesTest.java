package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.task.SwaleException;
import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BackOffHandler;
import org.springframework.kafka.listener.ListenerContainerPauseService;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.backoff.BackOffExecution;
import redis.clients.jedis.exceptions.JedisConnectionException;

class ListenerRetriesTest {
    private final List<String> counted = new ArrayList<>();
    private final ListenerRetries retries = new ListenerRetries(new SwaleMetrics() {
        @Override
        public void listenerRetry(String topic, String cause) {
            counted.add(topic + "/" + cause);
        }
    });
    private final ConsumerRecord<String, byte[]> record = new ConsumerRecord<>("swale.events", 1, 42, "k", new byte[0]);

    private static List<Long> delays(BackOffExecution execution, int max) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            long next = execution.nextBackOff();
            if (next == BackOffExecution.STOP) {
                break;
            }
            out.add(next);
        }
        return out;
    }

    @Test
    void whileRedisDoesNotAnswerTheDelaysDoubleToTheCapAndNeverStop() {
        var failure = new ListenerExecutionFailedException("Listener failed",
                new JedisConnectionException("Failed to connect to 127.0.0.1:6379."));
        List<Long> delays = delays(retries.backOff(record, failure).start(), 10_000);
        assertThat(delays).hasSize(10_000);
        assertThat(delays.subList(0, 8)).containsExactly(100L, 200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L);
        assertThat(delays).allSatisfy(d -> assertThat(d).isBetween(100L, 5000L));
        assertThat(counted).hasSize(10_000).allMatch("swale.events/unavailable"::equals);
    }

    @Test
    void aPermanentFailureIsNotRetried() {
        var failure = new ListenerExecutionFailedException("Listener failed", new SwaleException.Malformed("bad"));
        assertThat(retries.backOff(record, failure).start().nextBackOff()).isEqualTo(BackOffExecution.STOP);
        assertThat(counted).isEmpty();
    }

    @Test
    void anUnknownFailureIsRetriedAboutThreeSecondsThenStops() {
        List<Long> delays = delays(retries.backOff(record, new IllegalStateException("a bug")).start(), 1_000);
        assertThat(delays).isNotEmpty().hasSizeLessThan(1_000)
                .allSatisfy(d -> assertThat(d).isLessThanOrEqualTo(ListenerRetries.MAX_SLEEP.toMillis()));
        assertThat(delays.stream().mapToLong(Long::longValue).sum())
                .isLessThanOrEqualTo(ListenerRetries.UNKNOWN_BUDGET.toMillis() + ListenerRetries.MAX_DELAY.toMillis());
        assertThat(counted).hasSize(delays.size()).allMatch("swale.events/unknown"::equals);
    }

    @Test
    void stateCatchingUpIsRetriedLongerThenStops() {
        List<Long> delays = delays(retries.backOff(record, new SwaleException.UnknownDefinition("abc")).start(), 1_000);
        assertThat(delays).allSatisfy(d -> assertThat(d).isLessThanOrEqualTo(ListenerRetries.MAX_SLEEP.toMillis()));
        long total = delays.stream().mapToLong(Long::longValue).sum();
        assertThat(total).isGreaterThanOrEqualTo(ListenerRetries.CATCH_UP_BUDGET.toMillis() - ListenerRetries.MAX_DELAY.toMillis())
                .isLessThanOrEqualTo(ListenerRetries.CATCH_UP_BUDGET.toMillis() + ListenerRetries.MAX_DELAY.toMillis());
        assertThat(counted).allMatch("swale.events/catching_up"::equals);
    }

    @Test
    void anOutagePausesTheContainerAndAnyOtherFailureDoesNot() {
        var scheduler = new ThreadPoolTaskScheduler();
        scheduler.initialize();
        try (var containers = new ListenerContainers(Map.of(), new KafkaTemplate<>(() -> null), SwaleMetrics.NONE)) {
            var container = containers.recordListener("swale.triggers", "g", 1, r -> {});
            BackOffHandler waiting = ListenerRetries.waiting(new ListenerContainerPauseService(null, scheduler));

            waiting.onNextBackOff(container, new ListenerExecutionFailedException("Listener failed",
                    new IllegalStateException("a bug")), 50);
            assertThat(container.isPauseRequested()).isFalse();

            waiting.onNextBackOff(container, new ListenerExecutionFailedException("Listener failed",
                    new JedisConnectionException("Failed to connect to 127.0.0.1:6379.")), 200);
            assertThat(container.isPauseRequested()).isTrue();
            // resumed once the delay is over
            await().atMost(Duration.ofSeconds(10)).until(() -> !container.isPauseRequested());
        } finally {
            scheduler.shutdown();
        }
    }
}
