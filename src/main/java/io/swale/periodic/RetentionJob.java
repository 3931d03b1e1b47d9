package io.swale.periodic;

import io.swale.run.RetentionPass;
import io.swale.settings.SwaleProperties;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;

/** The retention pass (spec §12). */
public class RetentionJob extends SingletonJob {
    private static final String LOCK = "retention";
    private static final Duration LOCK_AT_MOST_FOR = Duration.ofMinutes(10);

    private final RetentionPass retention;

    public RetentionJob(LockingTaskExecutor locks, SwaleProperties props, RetentionPass retention) {
        super(locks, props);
        this.retention = retention;
    }

    @Override
    protected String lockName() {
        return LOCK;
    }

    @Override
    protected Duration lockAtMostFor() {
        return LOCK_AT_MOST_FOR;
    }

    /** A pass now, under the periodic pass's lock; empty when a pass holds it (on this replica or another). */
    public static Optional<RetentionPass.Report> runNow(LockingTaskExecutor locks, RetentionPass retention) {
        return underLock(locks, LOCK, LOCK_AT_MOST_FOR, retention::run);
    }

    @Override
    protected void runLocked() {
        retention.run();
    }
}
