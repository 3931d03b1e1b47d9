package io.swale.api;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A reading that is taken again only once it is older than {@code maxAge}; readers that ask while one is being
 * taken wait for that one and share its result or its failure. However many pages, scripts and probes poll a
 * replica, the store is read at most once at a time for them, and at most once per {@code maxAge} while readings
 * are quicker than that, at the cost of a figure up to that old.
 */
final class RecentReading<T> {
    private final Supplier<T> read;
    private final long maxAgeNanos;
    private final LongSupplier nanoTime;
    private T last;
    private long takenAt;
    private CompletableFuture<T> taking;

    RecentReading(Supplier<T> read, Duration maxAge) {
        this(read, maxAge, System::nanoTime);
    }

    RecentReading(Supplier<T> read, Duration maxAge, LongSupplier nanoTime) {
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("the age of a reading cannot be negative: " + maxAge);
        }
        this.read = Objects.requireNonNull(read);
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * The last reading while it is younger than the maximum age, else the one being taken, else a new one taken
     * on this thread. A failed reading is thrown to each reader that waited for it and is not kept.
     */
    T get() {
        CompletableFuture<T> reading;
        long startedAt;
        boolean mine;
        synchronized (this) {
            startedAt = nanoTime.getAsLong();
            if (last != null && startedAt - takenAt < maxAgeNanos) {
                return last;
            }
            mine = taking == null;
            if (mine) {
                taking = new CompletableFuture<>();
            }
            reading = taking;
        }
        if (mine) {
            take(reading, startedAt);
        }
        try {
            return reading.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    private void take(CompletableFuture<T> reading, long startedAt) {
        try {
            T value = Objects.requireNonNull(read.get());
            synchronized (this) {
                // aged from when it began: what it shows can be no newer than that
                last = value;
                takenAt = startedAt;
                taking = null;
            }
            reading.complete(value);
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                taking = null;
            }
            reading.completeExceptionally(e);
        }
    }
}
