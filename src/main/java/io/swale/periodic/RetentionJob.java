package io.swale.periodic;

import io.swale.run.RetentionPass;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;

/** The retention pass (spec §12). */
public class RetentionJob extends SingletonJob {
    @Autowired
    private RetentionPass retention;

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
