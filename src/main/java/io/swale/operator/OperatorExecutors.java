package io.swale.operator;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Threads the built-in operators share: one per blocking stream copy, and one timer for timeouts. */
final class OperatorExecutors {
    /** One daemon thread per blocking read or write of a program's pipes. */
    static final ExecutorService IO = Executors.newThreadPerTaskExecutor(
            Thread.ofPlatform().daemon().name("swale-operator-io-", 0).factory());

    private static final ScheduledThreadPoolExecutor TIMER;

    static {
        TIMER = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().daemon().name("swale-operator-timer-", 0).factory());
        TIMER.setRemoveOnCancelPolicy(true);
    }

    private OperatorExecutors() {}

    /**
     * Completes {@code stop} with {@code value} after {@code millis}; cancel the returned handle when
     * the work ends first so nothing stays queued for a long timeout.
     */
    static <T> ScheduledFuture<?> completeAfter(CompletableFuture<T> stop, T value, long millis) {
        return TIMER.schedule(() -> stop.complete(value), Math.max(0L, millis), TimeUnit.MILLISECONDS);
    }
}
