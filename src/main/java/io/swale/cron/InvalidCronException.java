package io.swale.cron;

/** A schedule that is not a valid expression of the 5-field UTC cron dialect (spec §4.1). */
public final class InvalidCronException extends IllegalArgumentException {
    public InvalidCronException(String message) {
        super(message);
    }
}
