package io.swale.periodic;

import io.swale.run.RetentionPass;
import io.swale.settings.SwaleProperties;
import java.time.Duration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;

/** The retention pass (spec §12). */
public class RetentionJob extends SingletonJob {
    private final RetentionPass retention;

    public RetentionJob(LockingTaskExecutor locks, SwaleProperties props, RetentionPass retention) {
        super(locks, props);
        this.retention = retention;
    }

    @Override
    protected String lockName() {
        return "retention";
    }

    @Override
    protected Duration lockAtMostFor() {
        return Duration.ofMinutes(10);
    }

    @Override
    protected void runLocked() {
        retention.run();
    }
}
