package io.swale.worker;

import io.swale.operator.Cancellation;
import io.swale.store.TaskStore;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeat of running attempts: polls each claim's cancel flag and extends its lease, and stops the
 * attempt when its run is cancelled or its claim is lost.
 */
public final class LeaseKeeper {
    private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);

    /** Lease and heartbeat timing. */
    public record Timing(Duration lease, Duration heartbeat, Duration cancelPoll) {}

    private final TaskStore tasks;
    private final ScheduledExecutorService ticker;
    private final Timing timing;

    public LeaseKeeper(TaskStore tasks, ScheduledExecutorService ticker, Timing timing) {
        this.tasks = tasks;
        this.ticker = ticker;
        this.timing = timing;
    }

    /**
     * Polls the cancel flag every cancelPoll and extends the lease every heartbeat until the returned future
     * is cancelled.
     */
    ScheduledFuture<?> keep(TaskIdentity id, long token, Cancellation cancellation) {
        long poll = timing.cancelPoll().toMillis();
        long extendEvery = Math.max(1, timing.heartbeat().toMillis() / poll);
        AtomicLong ticks = new AtomicLong();
        return ticker.scheduleWithFixedDelay(() -> {
            try {
                long lease = ticks.incrementAndGet() % extendEvery == 0 ? timing.lease().toMillis() : 0;
                switch (tasks.heartbeat(id.runKey(), id.runId(), token, lease)) {
                    case CANCELLING -> cancellation.cancel(CancelReason.RUN_CANCELLED);
                    case LOST -> cancellation.cancel(CancelReason.CLAIM_LOST);
                    case RUNNING -> { }
                }
            } catch (RuntimeException e) {
                log.warn("heartbeat failed runId={} error={}", id.runId(), e.toString());
            }
        }, poll, poll, TimeUnit.MILLISECONDS);
    }
}
