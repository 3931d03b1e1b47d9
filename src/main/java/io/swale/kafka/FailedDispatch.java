package io.swale.kafka;

/**
 * A failed poll of the dispatch listener, as an exception of one class per {@link ListenerFailure}, as {@link
 * FailedEvent} is for the events listener. The poll is retried whole, and its back-off is chosen by the first
 * failure's kind and kept while the failures are of one class: the store's errors are all of one class whatever
 * their kind (a Redis that is loading and a script error are both data errors), so an outage followed by a
 * failure no retry changes kept the outage's endless back-off, and the pool's partitions on this replica stalled
 * behind that poll for good. Not a {@code BatchListenerFailedException}: the dispatch listener's poll is retried
 * whole, not from a record (DispatchErrorHandler).
 */
sealed class FailedDispatch extends RuntimeException {
    private FailedDispatch(RuntimeException cause) {
        super(String.valueOf(cause.getMessage()), cause);
    }

    /** The failure caused by {@code cause}, of the class of its kind. */
    static FailedDispatch of(RuntimeException cause) {
        return switch (ListenerFailure.of(cause)) {
            case PERMANENT -> new Permanent(cause);
            case UNAVAILABLE -> new Unavailable(cause);
            case CATCHING_UP -> new CatchingUp(cause);
            case UNKNOWN -> new Unknown(cause);
        };
    }

    static final class Permanent extends FailedDispatch {
        private Permanent(RuntimeException cause) {
            super(cause);
        }
    }

    static final class Unavailable extends FailedDispatch {
        private Unavailable(RuntimeException cause) {
            super(cause);
        }
    }

    static final class CatchingUp extends FailedDispatch {
        private CatchingUp(RuntimeException cause) {
            super(cause);
        }
    }

    static final class Unknown extends FailedDispatch {
        private Unknown(RuntimeException cause) {
            super(cause);
        }
    }
}
