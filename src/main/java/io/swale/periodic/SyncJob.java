package io.swale.periodic;

import io.swale.settings.SwaleProperties;
import java.time.Duration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;

/** The sync pass: adoption of published definitions (spec §4.5). */
public class SyncJob extends SingletonJob {
    private final SyncService sync;

    public SyncJob(LockingTaskExecutor locks, SwaleProperties props, SyncService sync) {
        super(locks, props);
        this.sync = sync;
    }

    @Override
    protected String lockName() {
        return SyncService.LOCK;
    }

    @Override
    protected Duration lockAtMostFor() {
        return SyncService.LOCK_AT_MOST_FOR;
    }

    @Override
    protected void runLocked() {
        sync.pass();
    }
}
