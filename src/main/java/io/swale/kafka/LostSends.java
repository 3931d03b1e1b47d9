package io.swale.kafka;

/**
 * Told of a record the producer gave up on: {@code delivery.timeout.ms} passed with the broker away, or the
 * broker refused it. The dispatch or event it carried is gone, and the instance it was for waits in Redis for
 * whoever repairs it.
 */
@FunctionalInterface
public interface LostSends {
    /** Tells nobody; for adapters used without a repair (tests, tools). */
    LostSends NONE = (kind, cause) -> { };

    /** Called on the producer's I/O thread: must return at once. */
    void lost(String kind, Throwable cause);
}
