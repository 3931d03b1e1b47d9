package io.swale.request;

import io.swale.store.RequestStore;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a request id held while its call still handles it. A hold lasts {@code maxHandling} so that a call that
 * died lets a retry through; a call that is alive but slow (a backfill of many partitions, Redis retried through
 * a failover) renews it every third of that, so an equal retry is not applied beside it.
 */
final class HoldRenewal implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HoldRenewal.class);

    private final RequestStore store;
    private final Duration maxHandling;
    private final long everyMs;
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
            Thread.ofPlatform().daemon().name("request-hold-renewal").factory());

    HoldRenewal(RequestStore store, Duration maxHandling) {
        this(store, maxHandling, maxHandling.dividedBy(3));
    }

    HoldRenewal(RequestStore store, Duration maxHandling, Duration every) {
        if (every.isZero() || every.isNegative() || every.compareTo(maxHandling) >= 0) {
            throw new IllegalArgumentException("a hold of " + maxHandling + " must be renewed more often than that, not every "
                    + every);
        }
        this.store = store;
        this.maxHandling = maxHandling;
        this.everyMs = every.toMillis();
        // most handlings end in milliseconds: their cancelled renewals leave the queue at once
        timer.setRemoveOnCancelPolicy(true);
    }

    /** Renews the hold until the returned handle is closed, or until a renewal finds the hold gone. */
    Kept keep(RequestId id, RequestStore.Hold.Held held) {
        Kept kept = new Kept(id, held);
        kept.renewals = timer.scheduleWithFixedDelay(kept::renew, everyMs, everyMs, TimeUnit.MILLISECONDS);
        return kept;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** One call's hold being kept. */
    final class Kept implements AutoCloseable {
        private final RequestId id;
        private final RequestStore.Hold.Held held;
        private volatile ScheduledFuture<?> renewals;
        private volatile boolean done;

        private Kept(RequestId id, RequestStore.Hold.Held held) {
            this.id = id;
            this.held = held;
        }

        private void renew() {
            try {
                // a renewal that finds the hold let go after its call was done is no news
                if (!store.renew(id.value(), held, maxHandling) && !done) {
                    log.warn("request id={} is no longer held by the call handling it (its {} ran out); an equal "
                            + "request sent now may be applied beside it", id, maxHandling);
                    renewals.cancel(false);
                }
            } catch (RuntimeException e) {
                // the next renewal may get through before the hold runs out
                log.warn("request id={} hold not renewed error={}", id, e.toString());
            }
        }

        /** Whether renewals are still scheduled. */
        boolean renewing() {
            return !renewals.isDone();
        }

        @Override
        public void close() {
            done = true;
            renewals.cancel(false);
        }
    }
}
