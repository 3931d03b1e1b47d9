package io.swale.task;

/** Sends the dispatch of a pending task instance to its pool's topic. At least once; Redis decides who runs it. */
public interface Dispatcher {
    void dispatch(String pool, TaskIdentity identity);
}
