package io.swale.periodic;

import io.swale.settings.SwaleProperties;
import io.swale.task.DelayedMover;
import java.time.Duration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;

/** Moves due retries and continuations back to their pools. */
public class DelayedJob extends SingletonJob {
    private final DelayedMover mover;

    public DelayedJob(LockingTaskExecutor locks, SwaleProperties props, DelayedMover mover) {
        super(locks, props);
        this.mover = mover;
    }

    @Override
    protected String lockName() {
        return "delayed";
    }

    @Override
    protected Duration lockAtMostFor() {
        return TASK_PATH_LOCK;
    }

    @Override
    protected void runLocked() {
        mover.moveDue();
    }
}
