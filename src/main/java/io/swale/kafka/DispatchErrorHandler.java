package io.swale.kafka;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.springframework.kafka.listener.BackOffHandler;
import org.springframework.kafka.listener.ConsumerRecordRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.listener.RetryListener;
import org.springframework.util.backoff.BackOff;

/**
 * The error handler of a pool's dispatch listener, which commits its offsets itself. After handling a failed
 * poll, spring-kafka acknowledges the whole poll when {@link #isAckAfterHandle()} says so. That is right once
 * the poll was dead-lettered whole, and wrong once a retry of it succeeded: the retry claimed what the free
 * slots allowed and put the rest back, and acknowledging the poll would commit past those, so the partition's
 * next owner would never read them (DispatchRetryCommitIT).
 */
final class DispatchErrorHandler extends DefaultErrorHandler {
    /** Whether the poll being handled on this consumer thread was dead-lettered. */
    private final ThreadLocal<Boolean> recovered = ThreadLocal.withInitial(() -> false);

    DispatchErrorHandler(ConsumerRecordRecoverer recoverer, BackOff backOff, BackOffHandler backOffHandler) {
        super(recoverer, backOff, backOffHandler);
        setRetryListeners(new RetryListener() {
            @Override
            public void failedDelivery(ConsumerRecord<?, ?> record, Exception ex, int deliveryAttempt) {
                // each failed try is counted and logged by the back-off (ListenerRetries)
            }

            @Override
            public void recovered(ConsumerRecords<?, ?> records, Exception ex) {
                recovered.set(true);
            }
        });
    }

    @Override
    public void handleBatch(Exception thrownException, ConsumerRecords<?, ?> data, Consumer<?, ?> consumer,
            MessageListenerContainer container, Runnable invokeListener) {
        recovered.set(false);
        super.handleBatch(thrownException, data, consumer, container, invokeListener);
    }

    @Override
    public boolean isAckAfterHandle() {
        return recovered.get();
    }
}
