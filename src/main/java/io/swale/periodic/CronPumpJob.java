package io.swale.periodic;

import io.swale.settings.SwaleProperties;
import io.swale.trigger.CronPump;
import java.time.Duration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;

/** The cron pump's tick. Quartz only paces it: which occurrences fire is decided by the pump. */
public class CronPumpJob extends SingletonJob {
    private final CronPump pump;

    public CronPumpJob(LockingTaskExecutor locks, SwaleProperties props, CronPump pump) {
        super(locks, props);
        this.pump = pump;
    }

    @Override
    protected String lockName() {
        return "cron-pump";
    }

    @Override
    protected Duration lockAtMostFor() {
        return TASK_PATH_LOCK;
    }

    @Override
    protected void runLocked() {
        pump.tick();
    }
}
