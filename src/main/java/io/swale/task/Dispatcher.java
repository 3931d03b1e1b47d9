package io.swale.task;

import java.time.Duration;

/** Sends the dispatch of a pending task instance to its pool's topic. At least once; Redis decides who runs it. */
public interface Dispatcher {
    void dispatch(String pool, TaskIdentity identity);

    /**
     * Sends the dispatch and returns once the broker has it; throws when it is not acknowledged within
     * {@code timeout}. For a shutdown hand-over: the drain then knows its dispatches reached Kafka before the
     * process goes on to exit, rather than trusting the producer's close to flush them.
     */
    default void dispatchNow(String pool, TaskIdentity identity, Duration timeout) {
        dispatch(pool, identity);
    }
}
