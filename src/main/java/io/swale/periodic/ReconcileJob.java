package io.swale.periodic;

import io.swale.run.Reconciler;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;

/** The reconciler pass (spec §7.7). */
public class ReconcileJob extends SingletonJob {
    @Autowired
    private Reconciler reconciler;

    @Override
    protected String lockName() {
        return "reconciler";
    }

    @Override
    protected Duration lockAtMostFor() {
        return Duration.ofMinutes(5);
    }

    @Override
    protected void runLocked() {
        reconciler.pass();
    }
}
