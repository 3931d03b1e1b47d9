package io.swale.periodic;

import io.swale.task.DelayedMover;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;

/** Moves due retries and continuations back to their pools. */
public class DelayedJob extends SingletonJob {
    @Autowired
    private DelayedMover mover;

    @Override
    protected String lockName() {
        return "delayed";
    }

    @Override
    protected Duration lockAtMostFor() {
        return Duration.ofSeconds(30);
    }

    @Override
    protected void runLocked() {
        mover.moveDue();
    }
}
