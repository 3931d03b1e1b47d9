package io.swale.periodic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.swale.run.Reconciler;
import io.swale.settings.SwaleProperties;
import io.swale.task.DelayedMover;
import io.swale.task.LeaseReaper;
import io.swale.trigger.CronPump;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Issue 18 (ChaosIT, a 15.2 s pause): redis-server was killed while the reaper held its lock, the release was
 * lost, and the restarted server loaded the lock from its append-only file: no replica reaped for the rest of
 * the lock's minute, and four instances whose worker had been killed waited 20 s past their leases. The
 * reconciler's (5 min) and the cron pump's (1 min) locks could be stranded the same way.
 */
class TaskPathLocksTest {
    @Test
    void aLockWhoseReleaseWasLostHoldsTheJobsOnARunsPathOffForSecondsOnly() {
        List<LockConfiguration> asked = new CopyOnWriteArrayList<>();
        var locks = new DefaultLockingTaskExecutor(config -> {
            asked.add(config);
            return Optional.of(() -> { });
        });
        SwaleProperties props = new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("swale", SwaleProperties.class);

        new ReapJob(locks, props, mock(LeaseReaper.class)).execute(null);
        new DelayedJob(locks, props, mock(DelayedMover.class)).execute(null);
        new ReconcileJob(locks, props, mock(Reconciler.class)).execute(null);
        new CronPumpJob(locks, props, mock(CronPump.class)).execute(null);

        assertThat(asked).extracting(LockConfiguration::getName)
                .containsExactly("reaper", "delayed", "reconciler", "cron-pump");
        assertThat(asked).allSatisfy(c -> assertThat(c.getLockAtMostFor()).isLessThanOrEqualTo(Duration.ofSeconds(15)));
    }
}
