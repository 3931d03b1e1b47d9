package io.swale.task;

import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Dispatches the waiting instances whose retry delay or continuation delay is over. */
public final class DelayedMover {
    private static final Logger log = LoggerFactory.getLogger(DelayedMover.class);
    private static final String PASS = "delayed";
    /** How long an entry that failed waits before it is tried again. */
    static final long RETRY_LATER_MS = 60_000;

    private final TaskStore tasks;
    private final Dispatcher dispatcher;
    private final RepairFailures failures;

    public DelayedMover(TaskStore tasks, Dispatcher dispatcher, RepairFailures failures) {
        this.tasks = tasks;
        this.dispatcher = dispatcher;
        this.failures = failures;
    }

    /**
     * Returns how many instances went back to their pool. Each entry is removed only if it still has the due
     * time read (a re-park since keeps its new entry); a failure on one entry is logged, counted and kept with
     * its run, the entry waits {@link #RETRY_LATER_MS} (so entries that always fail cannot fill every read of
     * the due ones), and the pass goes on to the next.
     */
    public int moveDue() {
        int moved = 0;
        for (TaskStore.Delayed d : tasks.dueDelayed(500)) {
            try {
                TaskStore.DueRelease release = tasks.releaseDueOrEarly(d.key(), d.runId());
                if (release instanceof TaskStore.DueRelease.Early) {
                    // due by the clock that read the entries, not yet by the instance's shard: read again next pass
                    continue;
                }
                if (release instanceof TaskStore.DueRelease.Released(TaskInstance i)) {
                    dispatcher.dispatch(i.pool(), new TaskIdentity(d.key().graph(), d.key().partition(), i.node(),
                            i.asset(), i.definition(), i.rerun()));
                    moved++;
                }
                tasks.removeDelayed(d.key(), d.runId(), d.dueMs());
            } catch (RuntimeException e) {
                failures.rethrowOutage(e);
                failures.failed(PASS, d.key(), Optional.empty(), Optional.of(d.runId()), e);
                retryLater(d);
            }
        }
        return moved;
    }

    private void retryLater(TaskStore.Delayed d) {
        try {
            tasks.scheduleDelayed(d.key(), d.runId(), tasks.serverTimeMs() + RETRY_LATER_MS);
        } catch (RuntimeException e) {
            // the store is down: the entry keeps its due time and the next pass reads it again
            log.warn("delayed entry not moved back runId={} error={}", d.runId(), e.toString());
        }
    }
}
