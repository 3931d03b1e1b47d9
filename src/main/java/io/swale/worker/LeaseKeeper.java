package io.swale.worker;

import io.swale.operator.Cancellation;
import io.swale.store.TaskStore;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeat of running attempts: polls each claim's cancel flag, extends its lease, and stops the attempt
 * when its run is cancelled or its claim is lost.
 *
 * <p>A failed heartbeat is transient: the extension is tried again at the next poll, not a heartbeat later, so
 * an outage of the store shorter than {@code lease − heartbeat} never loses a claim. The worker knows how long
 * its lease surely holds (from the moment it sent the last extension that was answered); once that passes, it
 * stops the attempt, since the reaper may hand the instance to another worker: as
 * {@link CancelReason#LEASE_NOT_EXTENDED} when the extensions failed (the attempt then ends with a transient error
 * naming why, spec §8.2), else (a ticker that did not run) as {@link CancelReason#CLAIM_LOST}.
 */
public final class LeaseKeeper {
    private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);
    private static final Duration MAX_MARGIN = Duration.ofSeconds(2);
    private static final long NOT_WAITING = Long.MIN_VALUE;
    /**
     * Where the end of each kept lease, and of each resource grant ({@link ResourceGate}), is watched: a thread that
     * never waits on the store. The heartbeat ticker's threads do, for as long as a call to a store that does not
     * answer takes; an attempt whose lease ran out meanwhile would run on past it, beside the copy the reaper handed
     * to another worker.
     */
    static final ScheduledExecutorService DEADLINES = deadlineWatch();

    private static ScheduledExecutorService deadlineWatch() {
        ScheduledThreadPoolExecutor watch = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "swale-lease-deadline");
            t.setDaemon(true);
            return t;
        });
        watch.setRemoveOnCancelPolicy(true);
        return watch;
    }

    /**
     * Lease and heartbeat timing.
     *
     * @param heartbeat how often the lease is extended while the store answers
     * @param cancelPoll how often the cancel flag is read, and a failed extension tried again
     */
    public record Timing(Duration lease, Duration heartbeat, Duration cancelPoll) {
        public Timing {
            if (heartbeat.compareTo(lease) >= 0) {
                throw new IllegalArgumentException("the heartbeat (" + heartbeat + ") must be shorter than the lease ("
                        + lease + ")");
            }
        }

        /**
         * What a settle leaves before the lease ends: the time a last call needs to arrive, and drift between
         * this clock and the store's.
         */
        Duration margin() {
            Duration tenth = lease.dividedBy(10);
            return tenth.compareTo(MAX_MARGIN) < 0 ? tenth : MAX_MARGIN;
        }
    }

    private final TaskStore tasks;
    private final ScheduledExecutorService ticker;
    private final Timing timing;
    private final SwaleMetrics metrics;
    private final LongSupplier nanoTime;
    // once per keeper rather than per claim: margin() divides through BigDecimal (3 % of the slots' CPU samples)
    private final long leaseNanos;
    private final long heartbeatNanos;
    private final long marginNanos;

    public LeaseKeeper(TaskStore tasks, ScheduledExecutorService ticker, Timing timing, SwaleMetrics metrics) {
        this(tasks, ticker, timing, metrics, System::nanoTime);
    }

    LeaseKeeper(TaskStore tasks, ScheduledExecutorService ticker, Timing timing, SwaleMetrics metrics,
            LongSupplier nanoTime) {
        this.tasks = tasks;
        this.ticker = ticker;
        this.timing = timing;
        this.metrics = metrics;
        this.nanoTime = nanoTime;
        this.leaseNanos = timing.lease().toNanos();
        this.heartbeatNanos = timing.heartbeat().toNanos();
        this.marginNanos = timing.margin().toNanos();
    }

    long now() {
        return nanoTime.getAsLong();
    }

    /**
     * Keeps the claim (sent at {@code claimedAtNanos}, this keeper's clock) until the returned lease is closed:
     * polls the cancel flag every cancelPoll and extends the lease every heartbeat.
     */
    Lease keep(TaskIdentity id, long token, String pool, long claimedAtNanos, Cancellation cancellation) {
        Lease lease = open(id, token, pool, claimedAtNanos, cancellation);
        long poll = timing.cancelPoll().toMillis();
        lease.ticking = ticker.scheduleWithFixedDelay(lease::tick, poll, poll, TimeUnit.MILLISECONDS);
        lease.watchDeadline(DEADLINES);
        return lease;
    }

    /** A kept claim whose ticks the caller drives (tests), not the ticker. */
    Lease open(TaskIdentity id, long token, String pool, long claimedAtNanos, Cancellation cancellation) {
        return new Lease(id, token, pool, claimedAtNanos, cancellation);
    }

    /** One claim kept: until when its lease surely holds, as far as this worker knows. */
    final class Lease implements AutoCloseable, SettleWindow {
        private final TaskIdentity id;
        private final long token;
        private final String pool;
        private final Cancellation cancellation;
        // ticks of one lease never overlap (fixed delay); the settling thread only reads heldUntil
        private long extendedAt;
        private volatile long heldUntil;
        // written by the ticks only; read by the deadline watch too
        private volatile int failures;
        private volatile String lastFailure = "";
        private final AtomicBoolean expired = new AtomicBoolean();
        private volatile ScheduledFuture<?> ticking;
        private volatile ScheduledFuture<?> deadline;
        private volatile boolean closed;
        // when the heartbeat call in flight was sent; NOT_WAITING when none is
        private volatile long heartbeatSentAt = NOT_WAITING;

        private Lease(TaskIdentity id, long token, String pool, long claimedAtNanos, Cancellation cancellation) {
            this.id = id;
            this.token = token;
            this.pool = pool;
            this.cancellation = cancellation;
            this.extendedAt = claimedAtNanos;
            this.heldUntil = claimedAtNanos + leaseNanos;
        }

        /** One heartbeat: extend the lease when due (or overdue after a failure), else read the cancel flag. */
        void tick() {
            try {
                beat();
            } catch (RuntimeException e) {
                // a periodic task that throws is never run again: this lease would lose its heartbeat silently
                log.error("heartbeat tick failed runId={} pool={}", id.runId(), pool, e);
            }
        }

        /**
         * Stops the attempt once its lease may have ended, whether or not a tick is running: checked again at each
         * new end an extension gave it.
         */
        void watchDeadline(ScheduledExecutorService watch) {
            if (closed || expired.get()) {
                return;
            }
            long left = heldUntil - now();
            if (left <= 0) {
                expire();
                return;
            }
            try {
                ScheduledFuture<?> next = watch.schedule(() -> watchDeadline(watch), left, TimeUnit.NANOSECONDS);
                deadline = next;
                if (closed) {
                    // closed between the check above and this schedule: close() saw the previous future
                    next.cancel(false);
                }
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // the watch is a daemon that is never shut down; the ticks still check the lease
            }
        }

        private void beat() {
            if (expired.get()) {
                return;
            }
            long now = now();
            if (now - heldUntil >= 0) {
                expire();
                return;
            }
            boolean extend = now - extendedAt >= heartbeatNanos;
            TaskStore.Heartbeat answer;
            heartbeatSentAt = now;
            try {
                answer = tasks.heartbeat(id.runKey(), id.runId(), token, extend ? timing.lease().toMillis() : 0);
            } catch (RuntimeException e) {
                heartbeatSentAt = NOT_WAITING;
                failures++;
                lastFailure = e.toString();
                metrics.heartbeatFailed(pool);
                if (failures == 1 || failures % 10 == 0) {
                    log.warn("heartbeat failed runId={} pool={} failures={} leaseLeftMs={} error={}", id.runId(), pool,
                            failures, Math.max(0, (heldUntil - now) / 1_000_000), e.toString());
                }
                return;
            }
            heartbeatSentAt = NOT_WAITING;
            if (failures > 0) {
                log.info("heartbeat answered again runId={} pool={} after failures={}", id.runId(), pool, failures);
                failures = 0;
            }
            // the lease was extended from when the call was sent, at the latest: that is what surely holds
            if (extend && answer != TaskStore.Heartbeat.LOST) {
                extendedAt = now;
                heldUntil = now + leaseNanos;
            }
            switch (answer) {
                case CANCELLING -> cancellation.cancel(CancelReason.RUN_CANCELLED);
                case LOST -> cancellation.cancel(CancelReason.CLAIM_LOST);
                case RUNNING -> { }
            }
        }

        private void expire() {
            if (closed || !expired.compareAndSet(false, true)) {
                return;
            }
            metrics.leaseLost(pool);
            long waiting = heartbeatSentAt;
            if (waiting != NOT_WAITING && failures == 0) {
                // a store that holds the call rather than refusing it: the extensions failed all the same
                lastFailure = "the store has not answered a heartbeat for " + (now() - waiting) / 1_000_000 + " ms";
            }
            boolean failed = failures > 0 || waiting != NOT_WAITING;
            log.warn("lease lost runId={} pool={}: not extended for {} ms, the attempt is stopped{}", id.runId(), pool,
                    timing.lease().toMillis(), failed ? "; last error: " + lastFailure : "");
            cancellation.cancel(failed ? CancelReason.LEASE_NOT_EXTENDED : CancelReason.CLAIM_LOST);
            close();
        }

        /** Why the last extension failed, to name in the attempt's error; empty when none failed. */
        String lastFailure() {
            return lastFailure;
        }

        /**
         * The time an attempt whose lease ran out unextended has to settle its error: one heartbeat from now, as
         * long as a heartbeat would have waited for the store.
         */
        SettleWindow afterExpiry() {
            return SettleWindow.until(now() + heartbeatNanos, nanoTime);
        }

        /** Until when (this keeper's clock) the lease surely holds. */
        long heldUntilNanos() {
            return heldUntil;
        }

        /** Whether the lease surely holds for the margin a last settle call needs. */
        boolean holds() {
            return heldUntil - marginNanos - now() > 0;
        }

        @Override
        public boolean open() {
            return holds();
        }

        /** How long it surely holds, less the margin; zero or less once it may not. */
        @Override
        public long leftMs() {
            return (heldUntil - marginNanos - now()) / 1_000_000;
        }

        @Override
        public void close() {
            closed = true;
            ScheduledFuture<?> t = ticking;
            if (t != null) {
                t.cancel(false);
            }
            ScheduledFuture<?> d = deadline;
            if (d != null) {
                d.cancel(false);
            }
        }
    }
}
