package io.swale.kafka;

/** Marks a listener failure that no retry can change: the record goes to the dead-letter topic at once. */
public final class PermanentFailure extends RuntimeException {
    public PermanentFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
