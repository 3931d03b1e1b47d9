package io.swale.operator;

import java.util.Optional;

/**
 * Protection of one target host for the {@code http} operator: a circuit breaker that stops calling a host
 * that keeps failing, and a rate limiter. A refused call is a transient error, so the step is retried with
 * backoff like any other transient failure.
 */
public interface HostGuards {
    /** The guard of one call to {@code host} (host[:port]). */
    Guard acquire(String host);

    /** One guarded call. */
    interface Guard {
        /** Empty when the call may go ahead; else why it may not. */
        Optional<String> refusal();

        /** The host answered (2xx, or a 4xx that is the caller's fault). */
        void succeeded(long nanos);

        /** The host failed (5xx, 429, connection failure, timeout). */
        void failed(long nanos, Throwable why);

        /** The call ended for a reason unrelated to the host (cancellation). */
        void released();
    }

    HostGuards NONE = host -> new Guard() {
        @Override
        public Optional<String> refusal() {
            return Optional.empty();
        }

        @Override
        public void succeeded(long nanos) {}

        @Override
        public void failed(long nanos, Throwable why) {}

        @Override
        public void released() {}
    };
}
