package io.swale.task;

import io.swale.record.NodeStatus;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reaps expired leases (spec §14 #9, #10): the holder of a running attempt stopped extending its lease (its
 * worker died, or lost Redis). The instance is dispatched again while attempts remain (the dead attempt
 * counted), ends failed with a lease-expiry error and a dead-letter copy when none is left, and ends
 * cancelled when its run was cancelled meanwhile. A pass reads the active runs in pipelined batches and
 * calls the reap script only for instances whose lease is past, so it is cheap enough to run every few
 * seconds; the reconciler reaps too, as part of its slower full pass.
 */
public final class LeaseReaper {
    private static final Logger log = LoggerFactory.getLogger(LeaseReaper.class);
    private static final int BATCH = 200;
    private static final String PASS = "reaper";
    static final String CANCELLED = "the graph run was cancelled";

    private final RunStore runs;
    private final TaskStore tasks;
    private final Terminations terminations;
    private final Dispatcher dispatcher;
    private final RepairFailures failures;

    public LeaseReaper(RunStore runs, TaskStore tasks, Terminations terminations, Dispatcher dispatcher,
            RepairFailures failures) {
        this.runs = runs;
        this.tasks = tasks;
        this.terminations = terminations;
        this.dispatcher = dispatcher;
        this.failures = failures;
    }

    /**
     * Returns how many instances it reaped. A failure on one lease (an undecodable instance, a script error)
     * is logged, counted and kept with its run; the pass goes on to the next lease. A run whose record cannot
     * be read is left to the reconciler, which reports it.
     */
    public int pass() {
        List<RunKey> active = runs.activeRuns();
        long now = runs.nowMs();
        int reaped = 0;
        for (int from = 0; from < active.size(); from += BATCH) {
            for (RunStore.Read read : runs.readEach(active.subList(from, Math.min(active.size(), from + BATCH)))) {
                if (read instanceof RunStore.Read.Found(RunView view)) {
                    reaped += reapExpired(view, now);
                }
            }
        }
        return reaped;
    }

    private int reapExpired(RunView view, long now) {
        int reaped = 0;
        for (String runId : view.instances().keySet()) {
            Optional<String> node = Optional.empty();
            try {
                TaskInstance i = view.instances().get(runId);
                node = Optional.of(i.node());
                boolean held = i.status() == InstanceStatus.RUNNING || i.status() == InstanceStatus.CANCELLING;
                if (held && i.leaseUntilMs().orElse(0L) <= now && reap(view.key(), i)) {
                    reaped++;
                }
            } catch (RuntimeException e) {
                failures.rethrowOutage(e);
                failures.failed(PASS, view.key(), node, Optional.of(runId), e);
            }
        }
        return reaped;
    }

    /** Reaps one running instance if its lease is over; true when it did something. */
    public boolean reap(RunKey key, TaskInstance i) {
        TaskIdentity identity = new TaskIdentity(key.graph(), key.partition(), i.node(), i.asset(), i.definition(),
                i.rerun());
        return switch (tasks.reap(key, i.runId())) {
            case TaskStore.Reap.Redispatch r -> {
                dispatcher.dispatch(i.pool(), identity);
                log.info("lease expired, dispatched again graph={} partition={} node={} runId={} attempt={}/{} worker={}",
                        key.graph(), key.partition(), i.node(), i.runId(), i.attempt(), i.maxAttempts(),
                        i.worker().orElse("-"));
                yield true;
            }
            case TaskStore.Reap.Cancel c -> {
                terminations.terminate(identity, i.pool(), c.token(), NodeStatus.CANCELLED, Optional.empty(),
                        Optional.of(CANCELLED));
                yield true;
            }
            case TaskStore.Reap.Exhausted x -> {
                terminations.deadLetter(identity, x.token(), i.pool(), i.attempt(), i.maxAttempts(),
                        "the lease of attempt " + i.attempt() + " expired and no attempt is left");
                yield true;
            }
            case TaskStore.Reap.None n -> false;
        };
    }
}
