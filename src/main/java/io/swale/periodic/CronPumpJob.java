package io.swale.periodic;

import io.swale.trigger.CronPump;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Autowired;

/** The cron pump's tick. Quartz only paces it: which occurrences fire is decided by the pump. */
public class CronPumpJob extends SingletonJob {
    @Autowired
    private CronPump pump;

    @Override
    protected String lockName() {
        return "cron-pump";
    }

    @Override
    protected Duration lockAtMostFor() {
        return Duration.ofMinutes(1);
    }

    @Override
    protected void runLocked() {
        pump.tick();
    }
}
