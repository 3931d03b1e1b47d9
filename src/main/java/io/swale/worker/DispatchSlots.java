package io.swale.worker;

import io.swale.task.TaskIdentity;
import java.util.List;

/**
 * What a pool's dispatch listener asks of its worker for one poll: slots to reserve, and one claim of the
 * dispatches they take. {@link PoolWorker} is the one implementation; the listener's intake needs no more.
 */
public interface DispatchSlots {
    /** The pool these slots belong to. */
    String pool();

    /**
     * Reserves up to {@code wanted} free slots, waiting at most {@code waitMs} for the first; none once draining.
     * Every reserved slot is either used by {@link #claimAndRun} or returned with {@link #unreserve}.
     */
    int reserve(int wanted, long waitMs) throws InterruptedException;

    /** Returns reserved slots that no dispatch used. */
    void unreserve(int count);

    /**
     * Claims the dispatches (a slot reserved for each) in one round trip, runs {@code afterClaims}, then hands each
     * claimed attempt to its slot; false, claiming nothing, once draining.
     */
    boolean claimAndRun(List<TaskIdentity> ids, Runnable afterClaims);
}
