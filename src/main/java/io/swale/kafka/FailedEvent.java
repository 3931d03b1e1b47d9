package io.swale.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * The record a batch listener failed at, as an exception of one class per {@link ListenerFailure}. The error
 * handler keeps a record's back-off while its failures are of one class and starts it again when the class
 * changes; a batch listener's failures all arrive as {@link BatchListenerFailedException}, so without a class per
 * kind the first failure's back-off held for good: an event that failed first in an outage (retried without end)
 * and then for a reason no retry changes was retried for ever, its partition stalled behind it.
 */
sealed class FailedEvent extends BatchListenerFailedException {
    private FailedEvent(Throwable cause, ConsumerRecord<?, ?> record) {
        super(String.valueOf(cause.getMessage()), cause, record);
    }

    /** The failure of {@code record} caused by {@code cause}, of the class of its kind. */
    static FailedEvent at(ConsumerRecord<?, ?> record, Throwable cause) {
        return switch (ListenerFailure.of(cause)) {
            case PERMANENT -> new Permanent(cause, record);
            case UNAVAILABLE -> new Unavailable(cause, record);
            case CATCHING_UP -> new CatchingUp(cause, record);
            case UNKNOWN -> new Unknown(cause, record);
        };
    }

    static final class Permanent extends FailedEvent {
        private Permanent(Throwable cause, ConsumerRecord<?, ?> record) {
            super(cause, record);
        }
    }

    static final class Unavailable extends FailedEvent {
        private Unavailable(Throwable cause, ConsumerRecord<?, ?> record) {
            super(cause, record);
        }
    }

    static final class CatchingUp extends FailedEvent {
        private CatchingUp(Throwable cause, ConsumerRecord<?, ?> record) {
            super(cause, record);
        }
    }

    static final class Unknown extends FailedEvent {
        private Unknown(Throwable cause, ConsumerRecord<?, ?> record) {
            super(cause, record);
        }
    }
}
