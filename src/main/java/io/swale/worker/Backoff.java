package io.swale.worker;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Retry delay after transient failure n: min(initial · 2^(n−1), max) (spec §14 #11), with up to 20 % jitter
 * added so that retries of many instances spread out: never shorter than the spec's wait, as a rate-limited
 * target may count on, and never past the cap.
 */
public record Backoff(Duration initial, Duration max, double jitter) {
    public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(5), 0.2);

    public Backoff {
        if (initial.isNegative() || max.compareTo(initial) < 0 || jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("backoff needs 0 <= initial <= max and 0 <= jitter < 1");
        }
    }

    public long delayMs(long failure) {
        double exponential = initial.toMillis() * Math.pow(2, Math.max(0, failure - 1));
        long delay = (long) Math.min(max.toMillis(), exponential);
        long spread = (long) (delay * jitter * ThreadLocalRandom.current().nextDouble());
        return Math.min(max.toMillis(), delay + spread);
    }
}
