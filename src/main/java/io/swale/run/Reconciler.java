package io.swale.run;

import io.swale.record.RunState;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.task.Dispatcher;
import io.swale.task.LeaseReaper;
import io.swale.task.ReconcilePass;
import io.swale.task.RepairFailures;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The repair path for whatever Kafka lost (spec §7.7, §14 #16): walks the active-runs index, never the
 * keyspace, and for each run advances it, re-cancels a cancelled run, dispatches stale pending instances
 * again, releases due retries, reaps expired leases, sends the dead-letter copies still owed and writes back the
 * records of ended instances that lost theirs ({@link LostRecords}). A run it cannot
 * repair (an undecodable record, a definition that does not render, a script error) is reported through
 * {@link RepairFailures} and skipped: one bad run never holds back the runs after it.
 */
public final class Reconciler {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    private static final int BATCH = 200;
    private static final String PASS = "reconciler";

    /**
     * How old a pending instance's dispatch must be for a pass after a fault to send it again: older than a
     * dispatch still on its way, far younger than {@code stale-dispatch}, which leaves a healthy backlog alone.
     */
    public static final long FAULT_STALE_DISPATCH_MS = 2_000;

    /** How long a dead-letter copy that cannot be sent is owed, and its run kept in the active-runs index. */
    public static final long OWED_DEAD_LETTER_LIMIT_MS = 3_600_000;

    private final RunStore runs;
    private final TaskStore tasks;
    private final GraphRuns graphRuns;
    private final RunCancellation cancellation;
    private final LeaseReaper reaper;
    private final Dispatcher dispatcher;
    private final long staleDispatchMs;
    private final long faultStaleDispatchMs;
    private final SwaleMetrics metrics;
    private final RepairFailures failures;
    private final Terminations terminations;
    private final LostRecords lostRecords;

    public Reconciler(RunStore runs, TaskStore tasks, GraphRuns graphRuns, RunCancellation cancellation,
            LeaseReaper reaper, Dispatcher dispatcher, long staleDispatchMs, SwaleMetrics metrics,
            RepairFailures failures, Terminations terminations) {
        this.terminations = terminations;
        this.lostRecords = new LostRecords(tasks);
        this.faultStaleDispatchMs = Math.min(staleDispatchMs, FAULT_STALE_DISPATCH_MS);
        this.runs = runs;
        this.tasks = tasks;
        this.graphRuns = graphRuns;
        this.cancellation = cancellation;
        this.reaper = reaper;
        this.dispatcher = dispatcher;
        this.staleDispatchMs = staleDispatchMs;
        this.metrics = metrics;
        this.failures = failures;
    }

    public ReconcilePass pass() {
        return pass(false);
    }

    /**
     * A pass right after a fault that may have lost dispatches: a scheduler that died between a submission and
     * its dispatch (its events' partitions just moved here), or a Redis failover that lost a claim whose
     * dispatch was already committed. It sends again every pending instance whose dispatch is older than
     * {@link #FAULT_STALE_DISPATCH_MS}, instead of waiting for {@code stale-dispatch}; an instance that was only
     * queued behind others gets a second dispatch, which its claim refuses.
     */
    public ReconcilePass passAfterFault() {
        return pass(true);
    }

    private ReconcilePass pass(boolean afterFault) {
        long t0 = System.nanoTime();
        ReconcilePass pass = walk(afterFault);
        metrics.reconcilerPass(System.nanoTime() - t0, pass);
        return pass;
    }

    /** The counts of one pass, added to run by run. */
    private static final class Tally {
        int submitted, settled, cancelled, redispatched, reaped, restored, failed;
        /** A resend of an owed dead letter failed: the others wait for the next pass, not 10 s each. */
        boolean deadLettersFailing;
    }

    private ReconcilePass walk(boolean afterFault) {
        List<RunKey> active = runs.activeRuns();
        Map<RunKey, RunStore.RepairError> errors = runs.repairErrors();
        Tally tally = new Tally();
        for (int from = 0; from < active.size(); from += BATCH) {
            List<RunKey> batch = active.subList(from, Math.min(active.size(), from + BATCH));
            List<RunStore.Read> reads = runs.readEach(batch);
            long now = tasks.serverTimeMs();
            Set<RunKey> present = new HashSet<>();
            for (RunStore.Read read : reads) {
                present.add(read.key());
                // one run's failure (decode, render, script) is kept with it; the pass goes on to the next run
                switch (read) {
                    case RunStore.Read.Unreadable u -> {
                        tally.failed++;
                        failures.unreadable(PASS, u.key(), u.error());
                    }
                    case RunStore.Read.Found f -> {
                        try {
                            repair(f.view(), now, afterFault, tally);
                            if (errors.containsKey(f.key())) {
                                runs.clearRepairError(f.key());
                            }
                        } catch (RuntimeException e) {
                            failures.rethrowOutage(e);
                            tally.failed++;
                            failures.failed(PASS, f.key(), Optional.empty(), Optional.empty(), e);
                        }
                    }
                }
            }
            for (RunKey gone : batch) {
                if (!present.contains(gone)) {
                    runs.dropActive(gone);
                }
            }
        }
        // a run that left the index (settled, expired) no longer shows an old repair error
        Set<RunKey> indexed = new HashSet<>(active);
        errors.keySet().stream().filter(k -> !indexed.contains(k)).forEach(runs::clearRepairError);
        ReconcilePass pass = new ReconcilePass(active.size(), tally.submitted, tally.settled, tally.cancelled,
                tally.redispatched, tally.reaped, tally.restored, tally.failed);
        // a pass after a fault is logged by whoever asked for it, with the fault
        if (!afterFault
                && tally.submitted + tally.settled + tally.cancelled + tally.redispatched + tally.reaped + tally.restored
                + tally.failed > 0) {
            log.info("reconciler pass {}", pass);
        }
        return pass;
    }

    private void repair(RunView view, long now, boolean afterFault, Tally tally) {
        repairInstances(view, now, afterFault, tally);
        switch (view.run().state()) {
            case ACTIVE -> {
                // a record written back changes what is ready: the run is advanced from what it reads now
                int restored = lostRecords.restore(view, now);
                tally.restored += restored;
                Optional<RunView> current = restored == 0 ? Optional.of(view) : runs.read(view.key());
                current.filter(v -> v.run().state() == RunState.ACTIVE).ifPresent(v -> advance(v, tally));
            }
            case CANCELLED -> {
                tally.cancelled += cancellation.cancelInstances(view);
                dropIfIdle(view);
            }
            case COMPLETE, FAILED -> dropIfIdle(view);
        }
    }

    private void advance(RunView view, Tally tally) {
        tally.cancelled += cancellation.cancelOrphans(view);
        GraphRuns.Advanced a = graphRuns.advanceAll(view);
        tally.submitted += a.submitted();
        tally.settled += a.settled() ? 1 : 0;
    }

    /**
     * An instance whose read state shows nothing due at {@code now} (the store's time, read after the view) costs
     * no round trip: its dispatch is fresh, its retry not yet due, its lease not yet over, its dead-letter copy
     * not owed. The scripts check again themselves.
     */
    private void repairInstances(RunView view, long now, boolean afterFault, Tally tally) {
        long staleMs = afterFault ? faultStaleDispatchMs : staleDispatchMs;
        for (TaskInstance i : view.instances().values()) {
            TaskIdentity identity = new TaskIdentity(view.key().graph(), view.key().partition(), i.node(), i.asset(),
                    i.definition(), i.rerun());
            switch (i.status()) {
                case PENDING -> {
                    if (i.dispatchedMs() <= now - staleMs && (afterFault
                            ? tasks.redispatchAfterFault(view.key(), i.runId(), staleMs)
                            : tasks.redispatchIfStale(view.key(), i.runId(), staleMs))) {
                        dispatcher.dispatch(i.pool(), identity);
                        tally.redispatched++;
                    }
                }
                case WAITING -> {
                    if (i.dueMs().map(due -> due <= now).orElse(true)
                            && tasks.releaseDue(view.key(), i.runId()).isPresent()) {
                        i.dueMs().ifPresent(due -> tasks.removeDelayed(view.key(), i.runId(), due));
                        dispatcher.dispatch(i.pool(), identity);
                        tally.redispatched++;
                    }
                }
                case RUNNING, CANCELLING -> {
                    if (i.leaseUntilMs().map(lease -> lease > now).orElse(false)) {
                        continue;
                    }
                    tally.reaped += reaper.reap(view.key(), i) ? 1 : 0;
                }
                case FAILED -> {
                    if (i.owedDeadLetter().isPresent() && !tally.deadLettersFailing
                            && i.endedMs().map(end -> end <= now - staleDispatchMs).orElse(true)) {
                        sendOwed(view, i, identity, tally);
                    }
                }
                default -> { }
            }
        }
    }

    /**
     * Sends again a dead-letter copy still owed stale-dispatch after its end, even in a pass after a fault (the
     * holder that ended it may still be waiting for the broker's acknowledgement), and at most once a stale-dispatch
     * whatever passes run at once; gives it up when it has been owed for {@link #OWED_DEAD_LETTER_LIMIT_MS}.
     */
    private void sendOwed(RunView view, TaskInstance i, TaskIdentity identity, Tally tally) {
        switch (tasks.takeOwedDeadLetter(view.key(), i.runId(), staleDispatchMs, OWED_DEAD_LETTER_LIMIT_MS)) {
            case SEND -> tally.deadLettersFailing =
                    terminations.sendOwed(identity, i) == Terminations.Delivery.NOT_SENT;
            case EXPIRED -> terminations.giveUpOwed(identity, "owed for "
                    + java.time.Duration.ofMillis(OWED_DEAD_LETTER_LIMIT_MS) + " since the instance ended");
            case WAIT, NONE -> { }
        }
    }

    private void dropIfIdle(RunView view) {
        if (view.instances().values().stream().noneMatch(i -> i.status().isActive())) {
            runs.dropActive(view.key());
        }
    }
}
