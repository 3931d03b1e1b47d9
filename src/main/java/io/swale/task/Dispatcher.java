package io.swale.task;

import java.time.Duration;

/** Sends the dispatch of a pending task instance to its pool's topic. At least once; Redis decides who runs it. */
public interface Dispatcher {
    void dispatch(String pool, TaskIdentity identity);

    /**
     * Sends the dispatch and returns once the broker has it; throws when it is not acknowledged within
     * {@code timeout}. For the last sends of a process about to exit (a shutdown hand-over): an asynchronous send
     * still buffered when the JVM ends is lost, and only the reconciler would dispatch the instance again.
     */
    default void dispatchNow(String pool, TaskIdentity identity, Duration timeout) {
        dispatch(pool, identity);
    }
}
