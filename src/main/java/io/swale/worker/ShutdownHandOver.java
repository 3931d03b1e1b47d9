package io.swale.worker;

import io.swale.store.TaskStore;
import io.swale.task.Dispatcher;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shutdown that cannot be starved: once the drain begins no slot is reserved and no later dispatch claimed,
 * so a stream of ready work cannot defer it. In-flight attempts get a grace period; the leases of those
 * still running after it are given back and their instances dispatched again, so another replica takes
 * them without waiting for the lease to expire.
 */
final class ShutdownHandOver {
    private static final Logger log = LoggerFactory.getLogger(ShutdownHandOver.class);

    private final String pool;
    private final String workerId;
    private final WorkerSlots slots;
    private final TaskStore tasks;
    private final Dispatcher dispatcher;
    private final Settlement settlement;
    /** How long a given-back instance's dispatch may take to be acknowledged before the reconciler is left to it. */
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(10);
    private final List<String> givenBack = new java.util.concurrent.CopyOnWriteArrayList<>();

    ShutdownHandOver(String pool, String workerId, WorkerSlots slots, TaskStore tasks, Dispatcher dispatcher,
            Settlement settlement) {
        this.pool = pool;
        this.workerId = workerId;
        this.slots = slots;
        this.tasks = tasks;
        this.dispatcher = dispatcher;
        this.settlement = settlement;
    }

    /**
     * Lets in-flight attempts finish within {@code grace}; then stops the rest (kills their programs). Each
     * stopped attempt gives its lease back and is dispatched again from its own slot the moment its program
     * ended ({@link PoolWorker}), so one slow program delays no other hand-over. One that does not stop within
     * 10 s is given back here anyway, while its program may still run: the only case in which two copies can
     * overlap, chosen over holding the instance for a whole lease. Call after the listener stopped, so no claim
     * can still be on its way.
     */
    PoolWorker.Drained drain(Duration grace) throws InterruptedException {
        slots.beginDrain();
        long t0 = System.nanoTime();
        int before = slots.running();
        slots.awaitEnd(grace);
        List<WorkerSlots.Running> left = slots.inFlight();
        left.forEach(r -> r.cancellation().cancel(CancelReason.GIVEN_BACK));
        slots.awaitEnd(Duration.ofSeconds(10));
        for (WorkerSlots.Running r : slots.inFlight()) {
            log.warn("attempt did not stop within 10 s, its lease is given back anyway runId={}", r.id().runId());
            giveBack(r.id(), r.claim().token());
        }
        long handedOver = (System.nanoTime() - t0) / 1_000_000;
        slots.close();
        PoolWorker.Drained d = new PoolWorker.Drained(before - left.size(), List.copyOf(givenBack), handedOver);
        log.info("pool drained pool={} worker={} finished={} givenBack={} ms={}", pool, workerId,
                d.finished(), d.givenBack(), d.millis());
        return d;
    }

    /**
     * Gives a stopped attempt's lease back and dispatches its instance again (any thread). A second call for the
     * same attempt finds the lease gone (fenced by its token) and does nothing.
     */
    void giveBack(TaskIdentity id, long token) {
        try {
            switch (tasks.giveBack(id.runKey(), id.runId(), token, CancelReason.GIVEN_BACK.message())) {
                case RELEASED -> {
                    givenBack.add(id.runId());
                    // waited for: the drain ends, and the process exits, only once Kafka has it (issue 18)
                    dispatcher.dispatchNow(pool, id, SEND_TIMEOUT);
                    log.info("lease given back graph={} partition={} node={} runId={}", id.graph(), id.partition(),
                            id.node(), id.runId());
                }
                case CANCELLING -> settlement.endCancelled(id, token, pool);
                case LOST -> log.info("lease already ended runId={}", id.runId());
            }
        } catch (RuntimeException e) {
            // Not released: the lease expires and the reaper dispatches it. Released but not sent: the reconciler does.
            log.warn("hand-over incomplete runId={} error={}", id.runId(), e.toString());
        }
    }
}
