package io.swale.worker;

import io.swale.operator.Cancellation;
import io.swale.store.TaskStore;
import io.swale.task.Dispatcher;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor side of one pool on this replica: at most {@code slots} attempts at once. The dispatches of
 * one poll are claimed in Redis together, their offsets committed, and the attempts handed to the executor,
 * so no record is held while an operator runs. Dispatches beyond the free slots go back to the topic and
 * the listener pauses while every slot is taken.
 *
 * <p>Shutdown cannot be starved: once {@link #beginDrain()} ran, no slot is reserved and no later dispatch
 * is claimed or committed, so a stream of ready work cannot defer it. In-flight
 * attempts get a grace period; the leases of those still running after it are given back and their
 * instances dispatched again, so another replica takes them without waiting for the lease to expire.
 */
public final class PoolWorker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PoolWorker.class);

    /** Pauses and resumes the listener that feeds this worker. */
    public interface Flow {
        void pause();

        void resume();
    }

    /** Who this worker is and how long it holds a claim. */
    public record Settings(String workerId, long leaseMs) {}

    /** An attempt running on this worker. */
    private record InFlight(TaskIdentity id, long token, Cancellation cancellation) {}

    /** What a drain did: attempts that finished in the grace period, and leases given back. */
    public record Drained(int finished, List<String> givenBack, long millis) {}

    private final String pool;
    private final int slots;
    private final TaskStore tasks;
    private final AttemptRunner runner;
    private final Dispatcher dispatcher;
    private final Settings settings;
    private final Semaphore free;
    private final ThreadPoolExecutor executor;
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private volatile boolean draining;
    private volatile Flow flow = new Flow() {
        @Override
        public void pause() {}

        @Override
        public void resume() {}
    };

    public PoolWorker(String pool, int slots, TaskStore tasks, AttemptRunner runner, Dispatcher dispatcher,
            Settings settings) {
        this.pool = pool;
        this.slots = slots;
        this.tasks = tasks;
        this.runner = runner;
        this.dispatcher = dispatcher;
        this.settings = settings;
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
        return inFlight.size();
    }

    public boolean isDraining() {
        return draining;
    }

    /**
     * Reserves up to {@code wanted} free slots for a poll of dispatches, waiting at most {@code waitMs} for
     * the first; none once draining (checked at least every 50 ms). Every reserved slot is either used by
     * {@link #claimAndRun} or returned with {@link #unreserve}.
     */
    public int reserve(int wanted, long waitMs) throws InterruptedException {
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

    /** Returns reserved slots that no dispatch used. */
    public void unreserve(int slots) {
        free.release(slots);
    }

    /**
     * Claims dispatches (a slot reserved for each) in one round trip, runs {@code afterClaims}, then hands each
     * claimed attempt to the executor. Their offsets may be committed once this returns: a claim, not the
     * offset, is what keeps a redelivered dispatch from running twice. Once draining it claims nothing and
     * returns false: those dispatches are left, uncommitted, for another replica. A failure of
     * {@code afterClaims} is thrown once the claimed attempts are handed off.
     */
    public boolean claimAndRun(List<TaskIdentity> ids, Runnable afterClaims) {
        if (draining) {
            log.info("dispatches left for another replica: shutting down pool={} count={}", pool, ids.size());
            free.release(ids.size());
            return false;
        }
        List<TaskStore.Claim> claims;
        try {
            claims = ids.isEmpty() ? List.of() : tasks.claimAll(
                    ids.stream().map(id -> new TaskStore.ClaimRequest(id.runKey(), id.runId())).toList(),
                    settings.leaseMs(), settings.workerId());
        } catch (RuntimeException e) {
            free.release(ids.size());
            throw e;
        }
        // what was claimed runs whatever afterClaims does: a claim never handed off would hold its slot for good
        RuntimeException afterClaimsFailed = null;
        try {
            afterClaims.run();
        } catch (RuntimeException e) {
            afterClaimsFailed = e;
        }
        int refused = 0;
        for (int i = 0; i < ids.size(); i++) {
            TaskIdentity id = ids.get(i);
            if (claims.get(i) instanceof TaskStore.Claim.Claimed claimed) {
                Cancellation cancellation = new Cancellation();
                inFlight.put(id.runId(), new InFlight(id, claimed.token(), cancellation));
                executor.execute(() -> runAttempt(id, claimed, cancellation));
            } else {
                refused++;
                log.info("dispatch refused at claim graph={} partition={} node={} runId={} state={}", id.graph(),
                        id.partition(), id.node(), id.runId(), ((TaskStore.Claim.Refused) claims.get(i)).state());
            }
        }
        free.release(refused);
        if (afterClaimsFailed != null) {
            throw afterClaimsFailed;
        }
        return true;
    }

    /**
     * Pauses the listener while every slot is taken. The second look closes the race with an attempt that
     * ended between the first look and the pause: its resume may have come before the pause, so whoever
     * sees a free slot after pausing resumes.
     */
    public void pauseIfFull() {
        if (free.availablePermits() == 0) {
            flow.pause();
            if (free.availablePermits() > 0 && !draining) {
                flow.resume();
            }
        }
    }

    private void runAttempt(TaskIdentity id, TaskStore.Claim.Claimed claim, Cancellation cancellation) {
        try {
            runner.run(id, claim, pool, cancellation);
        } catch (RuntimeException e) {
            log.error("attempt failed to settle runId={} attempt={}", id.runId(), claim.attempt(), e);
        } finally {
            inFlight.remove(id.runId());
            free.release();
            if (!draining) {
                flow.resume();
            }
        }
    }

    /** Stops claiming at once; the dispatch being looked at now and every later one stay uncommitted. */
    public void beginDrain() {
        draining = true;
    }

    /**
     * Lets in-flight attempts finish within {@code grace}; then stops the rest (kills their programs, so no
     * two copies ever overlap), gives their leases back and dispatches them again. Call after the listener
     * stopped, so no claim can still be on its way.
     */
    public Drained drain(Duration grace) throws InterruptedException {
        beginDrain();
        long t0 = System.nanoTime();
        int before = inFlight.size();
        executor.shutdown();
        executor.awaitTermination(Math.max(0, grace.toMillis()), TimeUnit.MILLISECONDS);
        List<InFlight> left = List.copyOf(inFlight.values());
        left.forEach(f -> f.cancellation().cancel(AttemptRunner.GIVEN_BACK));
        executor.awaitTermination(10, TimeUnit.SECONDS);
        for (InFlight f : left) {
            giveBack(f);
        }
        long handedOver = (System.nanoTime() - t0) / 1_000_000;
        executor.shutdownNow();
        Drained d = new Drained(before - left.size(), left.stream().map(f -> f.id().runId()).toList(), handedOver);
        log.info("pool drained pool={} worker={} finished={} givenBack={} ms={}", pool, settings.workerId(),
                d.finished(), d.givenBack(), d.millis());
        return d;
    }

    private void giveBack(InFlight f) {
        TaskIdentity id = f.id();
        try {
            switch (tasks.giveBack(id.runKey(), id.runId(), f.token(), AttemptRunner.GIVEN_BACK)) {
                case RELEASED -> {
                    dispatcher.dispatch(pool, id);
                    log.info("lease given back graph={} partition={} node={} runId={}", id.graph(), id.partition(),
                            id.node(), id.runId());
                }
                case CANCELLING -> runner.endCancelled(id, f.token());
                case LOST -> log.info("lease already ended runId={}", id.runId());
            }
        } catch (RuntimeException e) {
            // The lease then expires and the reaper dispatches the instance again.
            log.warn("lease not given back runId={} error={}", id.runId(), e.toString());
        }
    }

    @Override
    public void close() {
        draining = true;
        executor.shutdownNow();
    }
}
