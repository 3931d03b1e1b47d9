package io.swale.worker;

import io.swale.operator.Cancellation;
import io.swale.store.TaskStore;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slots of one pool on this replica: at most {@code slots} operators running at once, each attempt on a
 * thread of the pool's executor, and which attempt holds which slot. A slot is reserved before its dispatch is claimed, so
 * nothing is claimed that cannot run at once; it is freed when the attempt's operator returns, and whoever
 * listens hears of it (the dispatch listener resumes). Once draining, no slot is reserved and no freed slot is
 * announced.
 *
 * <p>An attempt whose operator returned writes its result on a settle place, of which there are as many as
 * slots: the next dispatch does not wait for the finish's round trip, and a store that settles slowly still
 * holds the slots back, as an attempt waits for a settle place on its slot. At most twice {@code slots}
 * attempts are on this replica at once, one thread each.
 */
final class WorkerSlots implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WorkerSlots.class);

    /** An attempt holding a slot; its claim was sent at {@code claimedAtNanos} (System.nanoTime). */
    record Running(TaskIdentity id, TaskStore.Claim.Claimed claim, long claimedAtNanos, Cancellation cancellation) {}

    private final int slots;
    private final Semaphore free;
    private final Semaphore settlePlaces;
    private final AtomicInteger operatorsRunning = new AtomicInteger();
    private final ThreadPoolExecutor executor;
    private final BiConsumer<Running, Runnable> attempt;
    private final Map<String, Running> inFlight = new ConcurrentHashMap<>();
    private volatile boolean draining;
    private volatile Runnable freed = () -> { };

    /**
     * {@code attempt} runs each attempt on its slot's thread, and calls the runnable it is given once the
     * attempt's operator returned: the attempt moves to a settle place (see {@link #run}).
     */
    WorkerSlots(String pool, int slots, BiConsumer<Running, Runnable> attempt) {
        this.slots = slots;
        this.attempt = attempt;
        this.free = new Semaphore(slots);
        this.settlePlaces = new Semaphore(slots);
        AtomicInteger n = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(2 * slots, 2 * slots, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "swale-pool-" + pool + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    int slots() {
        return slots;
    }

    int free() {
        return free.availablePermits();
    }

    /** The attempts on this replica: running their operator, or settling. */
    int running() {
        return inFlight.size();
    }

    /** The attempts whose operator runs now, each on its slot. */
    int operatorsRunning() {
        return operatorsRunning.get();
    }

    boolean isDraining() {
        return draining;
    }

    /** Called on a pool thread each time an attempt frees its slot, unless draining. */
    void onFreed(Runnable listener) {
        this.freed = listener;
    }

    /**
     * Reserves up to {@code wanted} free slots, waiting at most {@code waitMs} for the first; none once
     * draining (checked at least every 50 ms). Every reserved slot is either taken by {@link #run} or
     * returned with {@link #unreserve}.
     */
    int reserve(int wanted, long waitMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        boolean first = false;
        while (!draining && !first) {
            long left = deadline - System.nanoTime();
            first = free.tryAcquire(Math.min(TimeUnit.MILLISECONDS.toNanos(50), Math.max(0, left)), TimeUnit.NANOSECONDS);
            if (!first && left <= 0) {
                return 0;
            }
        }
        if (!first) {
            return 0;
        }
        if (draining) {
            free.release();
            return 0;
        }
        int reserved = 1;
        while (reserved < wanted && free.tryAcquire()) {
            reserved++;
        }
        return reserved;
    }

    /** Returns reserved slots that no attempt took. */
    void unreserve(int count) {
        free.release(count);
    }

    /**
     * Runs a claimed attempt on a reserved slot; the slot is freed when the attempt ends, or earlier when its
     * operator returned: the attempt then waits on its slot for a settle place, moves there and frees the slot.
     * Interrupted while it waits, or once draining (no slot is reserved then), it settles on its slot. Refused
     * (RejectedExecutionException) once the drain has shut the slots down: the attempt is not in flight then.
     */
    void run(Running running) {
        inFlight.put(running.id().runId(), running);
        operatorsRunning.incrementAndGet();
        try {
            executor.execute(() -> runOn(running));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            inFlight.remove(running.id().runId(), running);
            operatorsRunning.decrementAndGet();
            throw e;
        }
    }

    private void runOn(Running running) {
        // touched only on this attempt's thread
        boolean[] moved = new boolean[1];
        try {
            attempt.accept(running, () -> {
                if (!moved[0]) {
                    moved[0] = toSettlePlace();
                }
            });
        } finally {
            // a later attempt of the same instance may have taken the entry (a claim lost, then taken again here)
            inFlight.remove(running.id().runId(), running);
            if (moved[0]) {
                settlePlaces.release();
            } else {
                operatorsRunning.decrementAndGet();
                freeSlot();
            }
        }
    }

    private boolean toSettlePlace() {
        if (draining) {
            return false;
        }
        try {
            settlePlaces.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        operatorsRunning.decrementAndGet();
        freeSlot();
        return true;
    }

    /** Whether an attempt waits on its slot for a settle place. */
    boolean waitsForSettlePlace() {
        return settlePlaces.hasQueuedThreads();
    }

    private void freeSlot() {
        free.release();
        if (!draining) {
            try {
                freed.run();
            } catch (RuntimeException e) {
                // the attempt still settles: a result thrown away here would be run again by the reaper
                log.error("the listener of freed slots failed", e);
            }
        }
    }

    /** Stops reserving at once. */
    void beginDrain() {
        draining = true;
    }

    /** Lets the running attempts go on for at most {@code grace}, starting none later. */
    void awaitEnd(Duration grace) throws InterruptedException {
        executor.shutdown();
        executor.awaitTermination(Math.max(0, grace.toMillis()), TimeUnit.MILLISECONDS);
    }

    /** The attempts still running. */
    List<Running> inFlight() {
        return List.copyOf(inFlight.values());
    }

    /** Stops the executor, interrupting what still runs. */
    @Override
    public void close() {
        draining = true;
        executor.shutdownNow();
    }
}
