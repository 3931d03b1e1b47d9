package io.swale.pool;

import io.swale.scheduler.TaskIdentity;
import io.swale.store.TaskStore;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor side of one pool on this replica: at most {@code slots} attempts at once. A dispatch is
 * claimed in Redis, its offset committed, and the attempt handed to the executor, so no record is held
 * while an operator runs. The listener pauses while every slot is taken.
 */
public final class PoolWorker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PoolWorker.class);

    /** Pauses and resumes the listener that feeds this worker. */
    public interface Flow {
        void pause();

        void resume();
    }

    private final String pool;
    private final int slots;
    private final TaskStore tasks;
    private final AttemptRunner runner;
    private final long leaseMs;
    private final Semaphore free;
    private final ExecutorService executor;
    private final AtomicInteger running = new AtomicInteger();
    private volatile Flow flow = new Flow() {
        @Override
        public void pause() {}

        @Override
        public void resume() {}
    };

    public PoolWorker(String pool, int slots, TaskStore tasks, AttemptRunner runner, long leaseMs) {
        this.pool = pool;
        this.slots = slots;
        this.tasks = tasks;
        this.runner = runner;
        this.leaseMs = leaseMs;
        this.free = new Semaphore(slots);
        AtomicInteger n = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(slots, slots, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "swale-pool-" + pool + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    public void attach(Flow flow) {
        this.flow = flow;
    }

    public String pool() {
        return pool;
    }

    public int slots() {
        return slots;
    }

    public int running() {
        return running.get();
    }

    /** Handles one dispatch on its own: waits for a slot however long it takes, claims, hands off, commits. */
    public void onDispatch(TaskIdentity id, Runnable commit) throws InterruptedException {
        offer(id, Long.MAX_VALUE / 2_000_000L);
        commit.run();
    }

    /**
     * Handles one dispatch of a polled batch on the listener thread: waits up to {@code waitMs} for a free
     * slot, then claims and hands off. Returns false when no slot freed in time: the caller leaves that record
     * and the rest of its batch for redelivery (the listener is paused by then), so no record is held while
     * long attempts run.
     */
    public boolean offer(TaskIdentity id, long waitMs) throws InterruptedException {
        if (!free.tryAcquire(Math.max(0, waitMs), TimeUnit.MILLISECONDS)) {
            pauseIfFull();
            return false;
        }
        boolean handedOff = false;
        try {
            TaskStore.Claim claim = tasks.claim(id.runKey(), id.runId(), leaseMs);
            if (claim instanceof TaskStore.Claim.Claimed claimed) {
                running.incrementAndGet();
                executor.execute(() -> runAttempt(id, claimed));
                handedOff = true;
                pauseIfFull();
            } else {
                log.debug("dispatch refused runId={} claim={}", id.runId(), claim);
            }
            return true;
        } finally {
            if (!handedOff) {
                free.release();
            }
        }
    }

    private void pauseIfFull() {
        if (free.availablePermits() == 0) {
            flow.pause();
            // an attempt that ended between the check and the pause found nothing to resume
            if (free.availablePermits() > 0) {
                flow.resume();
            }
        }
    }

    private void runAttempt(TaskIdentity id, TaskStore.Claim.Claimed claim) {
        try {
            runner.run(id, claim, pool);
        } catch (RuntimeException e) {
            log.error("attempt failed to settle runId={} attempt={}", id.runId(), claim.attempt(), e);
        } finally {
            running.decrementAndGet();
            free.release();
            flow.resume();
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
