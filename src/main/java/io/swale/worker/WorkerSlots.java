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
import java.util.function.Consumer;

/**
 * The slots of one pool on this replica: at most {@code slots} attempts at once, each on a thread of the
 * pool's executor, and which attempt holds which slot. A slot is reserved before its dispatch is claimed, so
 * nothing is claimed that cannot run at once; it is freed when the attempt's operator returns, and whoever
 * listens hears of it (the dispatch listener resumes). Once draining, no slot is reserved and no freed slot is
 * announced.
 *
 * <p>An attempt whose operator returned writes its result on a settle place, of which there are as many as
 * slots: the next dispatch does not wait for the finish's round trip, and a store that settles slowly still
 * holds the slots back, as an attempt waits for a settle place on its slot. At most twice {@code slots}
 * attempts are on this replica at once, one thread each.
 */
final class WorkerSlots {
    /** An attempt holding a slot; its claim was sent at {@code claimedAtNanos} (System.nanoTime). */
    record Running(TaskIdentity id, TaskStore.Claim.Claimed claim, long claimedAtNanos, Cancellation cancellation) {}

    private final int slots;
    private final Semaphore free;
    private final Semaphore settlePlaces;
    // the attempts that left their slot for a settle place
    private final java.util.Set<String> settling = ConcurrentHashMap.newKeySet();
    private final ThreadPoolExecutor executor;
    private final Consumer<Running> attempt;
    private final Map<String, Running> inFlight = new ConcurrentHashMap<>();
    private volatile boolean draining;
    private volatile Runnable freed = () -> { };

    /** {@code attempt} runs each attempt on its slot's thread. */
    WorkerSlots(String pool, int slots, Consumer<Running> attempt) {
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
        // read apart, the two sets may disagree for an instant about an attempt that is just ending
        return Math.clamp(inFlight.size() - settling.size(), 0, slots);
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
     * Runs a claimed attempt on a reserved slot; the slot is freed when the attempt ends, or earlier when it
     * moves to a settle place ({@link #operatorReturned}).
     */
    void run(Running running) {
        inFlight.put(running.id().runId(), running);
        executor.execute(() -> runOn(running));
    }

    /**
     * Moves an attempt whose operator returned from its slot to a settle place, waiting on its slot for one;
     * its slot is freed at once. Called on the attempt's thread; a second call does nothing. Interrupted while it
     * waits, the attempt settles on its slot.
     */
    void operatorReturned(Running running) {
        String runId = running.id().runId();
        if (settling.contains(runId)) {
            return;
        }
        try {
            settlePlaces.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        settling.add(runId);
        freeSlot();
    }

    /** Whether an attempt waits on its slot for a settle place. */
    boolean waitsForSettlePlace() {
        return settlePlaces.hasQueuedThreads();
    }

    private void runOn(Running running) {
        try {
            attempt.accept(running);
        } finally {
            inFlight.remove(running.id().runId());
            if (settling.remove(running.id().runId())) {
                settlePlaces.release();
            } else {
                freeSlot();
            }
        }
    }

    private void freeSlot() {
        free.release();
        if (!draining) {
            freed.run();
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
    void close() {
        draining = true;
        executor.shutdownNow();
    }
}
