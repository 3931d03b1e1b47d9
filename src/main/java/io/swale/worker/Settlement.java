package io.swale.worker;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.swale.operator.OperatorResult;
import io.swale.record.NodeStatus;
import io.swale.record.RecordException;
import io.swale.store.TaskStore;
import io.swale.task.SwaleException;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The end of an attempt, with the claim's token (spec §8.2): finish the instance, park it for a retry or its
 * next step, or dead-letter it; then count how the attempt ended.
 *
 * <p>Each step that reaches the store is retried while the store is unreachable for as long as the claim's
 * lease surely holds, so a store that is briefly down does not throw finished work away. Any other failure
 * that is not permanent (a script error, say) gets {@link #OTHER_TRIES} tries: the heartbeat keeps the lease
 * while a settle retries, so a failure that repeats forever would otherwise hold the slot and the lease forever. A retry is safe: the
 * store fences each step by the claim's token and recognises one that already committed
 * ({@link TaskStore.Finish#SETTLED}, the same {@link TaskStore.Park.Waiting}). Once the lease may have ended,
 * the result is dropped (logged, counted): the reaper runs the instance again. The one end settled past its
 * lease is that of a lease the store did not let the worker extend ({@link #settleUnextended}).
 */
public final class Settlement {
    private static final Logger log = LoggerFactory.getLogger(Settlement.class);
    private static final String CANCELLED = CancelReason.RUN_CANCELLED.message();

    /** The pause between tries of a failed settle step: short, as the lease is running out meanwhile. */
    public static final Backoff RETRY = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2), 0.2);
    /** Tries of a store step failing for a reason that is neither an outage nor permanent. */
    static final int OTHER_TRIES = 3;
    /**
     * The longest a step waits for its next (100 years): a longer delay, which an operator may ask for (a duration
     * is any unsigned 64-bit count of seconds), overflows a millisecond count, and a due time past 10^14 ms is no
     * longer exact in the store's scripts, whose numbers print with 14 digits.
     */
    static final long LONGEST_DELAY_MS = Duration.ofDays(36_525).toMillis();

    /** The result could not be settled: its window closed first, or the step kept failing. */
    static final class Abandoned extends RuntimeException {
        Abandoned(String message, RuntimeException cause) {
            super(message, cause);
        }
    }

    private final TaskStore tasks;
    private final Terminations terminations;
    private final Backoff backoff;
    private final Backoff retry;
    private final SwaleMetrics metrics;
    private final Predicate<Throwable> outage;

    /** {@code outage} tells a store that did not answer (the adapter's exceptions) from any other failure. */
    public Settlement(TaskStore tasks, Terminations terminations, Backoff backoff, SwaleMetrics metrics,
            Predicate<Throwable> outage) {
        this(tasks, terminations, backoff, RETRY, metrics, outage);
    }

    Settlement(TaskStore tasks, Terminations terminations, Backoff backoff, Backoff retry, SwaleMetrics metrics,
            Predicate<Throwable> outage) {
        this.tasks = tasks;
        this.terminations = terminations;
        this.backoff = backoff;
        this.retry = retry;
        this.metrics = metrics;
        this.outage = outage;
    }

    /**
     * Settles what the operator returned, or a cancelled end when the run was cancelled while the attempt
     * ran (whatever the attempt produced), and records the attempt's outcome and time since {@code t0}. Store
     * steps are retried while {@code window} is open (the lease holds).
     */
    void settle(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool, OperatorResult result, boolean cancelled,
            long t0, SettleWindow window) {
        Steps steps = new Steps(id, claim, pool, window);
        OperatorResult settled = cancelled ? new OperatorResult.Failed(CANCELLED) : result;
        try {
            switch (settled) {
                case OperatorResult.Succeeded s -> steps.succeed(s);
                case OperatorResult.Failed f -> steps.end(cancelled ? NodeStatus.CANCELLED : NodeStatus.FAILED,
                        f.reason());
                case OperatorResult.Continue c -> steps.park(delayMs(c.delay()), "", true,
                        Optional.of(c.state() == null ? JsonNodeFactory.instance.nullNode() : c.state()));
                case OperatorResult.TransientError t -> {
                    if (claim.attempt() < claim.maxAttempts()) {
                        steps.park(backoff.delayMs(claim.attempt()), t.message(), false, Optional.empty());
                    } else {
                        steps.deadLetter(t.message());
                    }
                }
                case OperatorResult.PermanentError p -> steps.deadLetter(p.message());
            }
        } catch (Abandoned e) {
            metrics.settleAbandoned(pool);
            log.error("attempt result dropped runId={} pool={} attempt={}: {}; the reaper runs it again", id.runId(),
                    pool, claim.attempt(), e.getMessage(), e.getCause());
            metrics.attemptFinished(pool, "lost", System.nanoTime() - t0);
            return;
        }
        metrics.attemptFinished(pool, cancelled ? "cancelled" : outcome(result, claim), System.nanoTime() - t0);
    }

    /**
     * Ends an attempt whose lease ran out because the store did not answer its extensions: a transient error
     * naming the cause (spec §8.2), so it is retried after a backoff while attempts remain, else dead-lettered.
     * The store takes it only while no reaper has handed the instance on (the token fences it); it is tried for
     * {@code window}, after which the reaper ends the attempt instead.
     */
    void settleUnextended(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool, String cause, long t0,
            SettleWindow window) {
        settle(id, claim, pool, new OperatorResult.TransientError("the lease of attempt " + claim.attempt()
                + " could not be extended: " + cause), false, t0, window);
    }

    /** Ends an instance whose run was cancelled while this worker held it (token {@code token}). */
    void endCancelled(TaskIdentity id, long token, String pool) {
        terminations.terminate(id, pool, token, NodeStatus.CANCELLED, Optional.empty(), Optional.of(CANCELLED));
    }

    private static long delayMs(Duration delay) {
        if (delay.isNegative()) {
            return 0;
        }
        return delay.compareTo(Duration.ofMillis(LONGEST_DELAY_MS)) > 0 ? LONGEST_DELAY_MS : delay.toMillis();
    }

    private static String outcome(OperatorResult result, TaskStore.Claim.Claimed claim) {
        return switch (result) {
            case OperatorResult.Succeeded s -> "succeeded";
            case OperatorResult.Failed f -> "failed";
            case OperatorResult.Continue c -> "continue";
            case OperatorResult.TransientError t -> claim.attempt() < claim.maxAttempts() ? "retry" : "failed";
            case OperatorResult.PermanentError p -> "failed";
        };
    }

    /** A failure another try may get past; a bug or a bad record stays what it is. */
    static boolean isTransient(Throwable e) {
        return !(e instanceof SwaleException.Permanent || e instanceof RecordException
                || e instanceof IllegalArgumentException || e instanceof NullPointerException
                || e instanceof ClassCastException || e instanceof Abandoned);
    }

    /** The store steps of one settle, each retried while its window is open. */
    private final class Steps {
        private final TaskIdentity id;
        private final TaskStore.Claim.Claimed claim;
        private final String pool;
        private final SettleWindow window;

        Steps(TaskIdentity id, TaskStore.Claim.Claimed claim, String pool, SettleWindow window) {
            this.id = id;
            this.claim = claim;
            this.pool = pool;
            this.window = window;
        }

        void end(NodeStatus status, String error) {
            afterEnd(retried("finish", () -> terminations.terminate(id, pool, claim.token(), status, Optional.empty(),
                    Optional.of(error))));
        }

        void succeed(OperatorResult.Succeeded result) {
            Optional<JsonNode> output = result.outputOmitted() ? Optional.empty() : Optional.of(result.output());
            afterEnd(retried("finish", () -> terminations.terminate(id, pool, claim.token(), NodeStatus.SUCCEEDED,
                    output, result.outputOmitted(), Optional.empty())));
        }

        void deadLetter(String error) {
            afterEnd(retried("dead-letter", () -> terminations.deadLetter(id, claim.token(), pool, claim.attempt(),
                    claim.maxAttempts(), error)));
        }

        /** A run cancelled while the attempt ran ends cancelled, whatever the attempt produced. */
        private void afterEnd(TaskStore.Finish outcome) {
            switch (outcome) {
                case OK, SETTLED -> { }
                case CANCELLING -> endCancelled();
                case LOST, UNKNOWN -> log.warn("settle refused runId={} attempt={} outcome={}", id.runId(),
                        claim.attempt(), outcome);
            }
        }

        private void endCancelled() {
            retried("finish cancelled", () -> terminations.terminate(id, pool, claim.token(), NodeStatus.CANCELLED,
                    Optional.empty(), Optional.of(CANCELLED)));
        }

        void park(long delayMs, String error, boolean nextStep, Optional<JsonNode> stepState) {
            TaskStore.Park parked = retried("park", () -> tasks.park(id.runKey(), id.runId(), claim.token(), delayMs,
                    error, nextStep, stepState));
            switch (parked) {
                // the park entered it in the delayed set
                case TaskStore.Park.Waiting w -> { }
                case TaskStore.Park.Cancelling c -> endCancelled();
                case TaskStore.Park.Lost l -> log.warn("park refused runId={}: the claim ended", id.runId());
            }
        }

        /**
         * Runs {@code step} if the window is open; an outage is tried again after a short backoff while it
         * is, any other failure that is not permanent {@link #OTHER_TRIES} times in all.
         */
        private <T> T retried(String step, Supplier<T> call) {
            // past its window the instance may have been reaped: no longer this attempt's to settle
            if (!window.open()) {
                throw new Abandoned("the time to settle ended before `" + step + "` reached the store", null);
            }
            // nearly every step succeeds at once: the retry's machinery (about 1.6 KB) is built after a failure only
            try {
                return call.get();
            } catch (RuntimeException first) {
                return retriedAfter(step, call, first);
            }
        }

        /** The retry of a step whose first try failed with {@code first}: it is seen as the first try's outcome. */
        private <T> T retriedAfter(String step, Supplier<T> call, RuntimeException first) {
            AtomicBoolean firstSeen = new AtomicBoolean();
            Supplier<T> tries = () -> {
                if (firstSeen.compareAndSet(false, true)) {
                    throw first;
                }
                return call.get();
            };
            AtomicInteger otherFailures = new AtomicInteger();
            RetryConfig config = RetryConfig.custom()
                    .maxAttempts(Integer.MAX_VALUE)
                    .retryOnException(e -> isTransient(e) && window.open()
                            && (outage.test(e) || otherFailures.incrementAndGet() < OTHER_TRIES))
                    .intervalBiFunction((attempt, either) -> Math.max(1, Math.min(retry.delayMs(attempt), window.leftMs())))
                    .build();
            Retry r = Retry.of("settle", config);
            r.getEventPublisher().onRetry(e -> {
                metrics.settleRetried(pool);
                log.warn("settle step failed, trying again runId={} pool={} step={} try={} waitMs={} error={}",
                        id.runId(), pool, step, e.getNumberOfRetryAttempts(), e.getWaitInterval().toMillis(),
                        String.valueOf(e.getLastThrowable()));
            });
            try {
                return r.executeSupplier(tries);
            } catch (RuntimeException e) {
                if (!isTransient(e)) {
                    throw e;
                }
                throw new Abandoned(window.open() ? "`" + step + "` failed " + OTHER_TRIES + " times"
                        : "the time to settle ended before `" + step + "` reached the store", e);
            }
        }
    }
}
