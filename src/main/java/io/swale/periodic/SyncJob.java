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
        return "sync";
    }

    @Override
    protected Duration lockAtMostFor() {
        return Duration.ofMinutes(2);
    }

    @Override
    protected void runLocked() {
        sync.sync();
    }
}
