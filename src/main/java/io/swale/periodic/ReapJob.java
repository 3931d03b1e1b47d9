package io.swale.periodic;

import io.swale.task.LeaseReaper;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;

/** The lease reaper, more frequent than the reconciler (spec §14 #9). */
public class ReapJob extends SingletonJob {
    @Autowired
    private LeaseReaper reaper;

    @Override
    protected String lockName() {
        return "reaper";
    }

    @Override
    protected Duration lockAtMostFor() {
        return Duration.ofMinutes(1);
    }

    @Override
    protected void runLocked() {
        reaper.pass();
    }
}
