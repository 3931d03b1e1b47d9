package io.swale.kafka;

/**
 * Told of a record the producer gave up on: {@code delivery.timeout.ms} passed with the broker away, the topic's
 * metadata did not come within {@code max.block.ms}, or the broker refused it. The dispatch or event it carried is
 * gone, and the instance it was for waits in Redis for whoever repairs it.
 */
public interface LostSends {
    /** Tells nobody and never says Kafka is away; for adapters used without a repair (tests, tools). */
    LostSends NONE = (kind, topic, cause, senderWaited) -> { };

    /** The cause given for a record given up without trying, because {@link #kafkaAway} said so. */
    Throwable UNSENT = new IllegalStateException("not sent: Kafka was found unreachable and has not answered since");

    /**
     * Called on the producer's I/O thread or the sender's: must return at once. {@code senderWaited}: the send
     * itself failed, after holding its caller (no metadata or no buffer room within {@code max.block.ms}), rather
     * than its record expiring later in the producer's buffer.
     */
    void lost(String kind, String topic, Throwable cause, boolean senderWaited);

    /** Whether a record for {@code topic} should be given up now without trying, rather than wait for Kafka. */
    default boolean kafkaAway(String topic) {
        return false;
    }
}
