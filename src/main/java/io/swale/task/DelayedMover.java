package io.swale.task;

import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.util.Optional;

/** Dispatches the waiting instances whose retry delay or continuation delay is over. */
public final class DelayedMover {
    private final TaskStore tasks;
    private final Dispatcher dispatcher;

    public DelayedMover(TaskStore tasks, Dispatcher dispatcher) {
        this.tasks = tasks;
        this.dispatcher = dispatcher;
    }

    /** Returns how many instances went back to their pool. */
    public int moveDue() {
        int moved = 0;
        for (TaskStore.Delayed d : tasks.dueDelayed(500)) {
            Optional<TaskInstance> released = tasks.releaseDue(d.key(), d.runId());
            released.ifPresent(i -> dispatcher.dispatch(i.pool(), new TaskIdentity(d.key().graph(), d.key().partition(),
                    i.node(), i.asset(), i.definition(), i.rerun())));
            tasks.removeDelayed(d.key(), d.runId());
            moved += released.isPresent() ? 1 : 0;
        }
        return moved;
    }
}
