package io.swale.periodic;

import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;

/** The sync pass: adoption of published definitions (spec §4.5). */
public class SyncJob extends SingletonJob {
    @Autowired
    private SyncService sync;

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
