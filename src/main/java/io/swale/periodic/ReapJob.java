package io.swale.periodic;

import io.swale.settings.SwaleProperties;
import io.swale.task.LeaseReaper;
import java.time.Duration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;

/** The lease reaper, more frequent than the reconciler (spec §14 #9). */
public class ReapJob extends SingletonJob {
    private final LeaseReaper reaper;

    public ReapJob(LockingTaskExecutor locks, SwaleProperties props, LeaseReaper reaper) {
        super(locks, props);
        this.reaper = reaper;
    }

    @Override
    protected String lockName() {
        return "reaper";
    }

    @Override
    protected Duration lockAtMostFor() {
        return TASK_PATH_LOCK;
    }

    @Override
    protected void runLocked() {
        reaper.pass();
    }
}
