package io.swale.periodic;

import io.swale.settings.SwaleProperties;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobExecutionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A periodic scheduler-role job that runs once per interval across replicas, under a Redis lock. Each job
 * stays correct if two replicas run it at once; the lock only saves the work.
 */
@DisallowConcurrentExecution
public abstract class SingletonJob implements Job {
    private static final Logger log = LoggerFactory.getLogger(SingletonJob.class);

    private final LockingTaskExecutor locks;
    private final SwaleProperties props;

    /** Quartz's Spring job factory creates each job through the bean factory, which resolves this constructor. */
    protected SingletonJob(LockingTaskExecutor locks, SwaleProperties props) {
        this.locks = locks;
        this.props = props;
    }

    /**
     * The lock named {@code name}, held at most {@code atMostFor} and released when its holder ends. Its expiry is
     * a real duration in Redis: measured on ShedLock's clock, never on the application clock, which tests move by
     * days.
     */
    static LockConfiguration lock(String name, Duration atMostFor) {
        return new LockConfiguration(ClockProvider.now(), name, atMostFor, Duration.ZERO);
    }

    /**
     * The longest a job on the path of a run holds its lock (the reaper, the delayed retries, the reconciler, the
     * cron pump). A lock whose release was lost — its replica or Redis killed during the pass, then Redis
     * restarted from its append-only file — holds every replica off the job this long: leases stay unreaped,
     * retries and lost dispatches unsent, cron firings unfired meanwhile. Two replicas that run such a job at
     * once stay correct, so a pass that outlasts it only costs work.
     */
    static final Duration TASK_PATH_LOCK = Duration.ofSeconds(15);

    /** {@code work} now under the lock {@code name}; empty when another holds it (on this replica or another). */
    static <T> Optional<T> underLock(LockingTaskExecutor locks, String name, Duration atMostFor, Supplier<T> work) {
        try {
            LockingTaskExecutor.TaskResult<T> r = locks.executeWithLock(work::get, lock(name, atMostFor));
            return r.wasExecuted() ? Optional.of(r.getResult()) : Optional.empty();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(name + " pass failed", e);
        }
    }

    protected abstract String lockName();

    protected abstract Duration lockAtMostFor();

    protected abstract void runLocked();

    @Override
    public void execute(JobExecutionContext context) {
        if (!props.hasRole("scheduler")) {
            return;
        }
        try {
            locks.executeWithLock((Runnable) this::runLocked, lock(lockName(), lockAtMostFor()));
        } catch (RuntimeException e) {
            log.warn("job failed job={} error={}", lockName(), e.toString());
        }
    }
}
