package io.swale.periodic;

import io.swale.run.Reconciler;
import io.swale.settings.SwaleProperties;
import java.time.Duration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;

/** The reconciler pass (spec §7.7). */
public class ReconcileJob extends SingletonJob {
    private final Reconciler reconciler;

    public ReconcileJob(LockingTaskExecutor locks, SwaleProperties props, Reconciler reconciler) {
        super(locks, props);
        this.reconciler = reconciler;
    }

    @Override
    protected String lockName() {
        return "reconciler";
    }

    @Override
    protected Duration lockAtMostFor() {
        return TASK_PATH_LOCK;
    }

    @Override
    protected void runLocked() {
        reconciler.pass();
    }
}
