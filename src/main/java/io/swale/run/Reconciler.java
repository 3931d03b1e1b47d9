package io.swale.run;

import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.task.Dispatcher;
import io.swale.task.LeaseReaper;
import io.swale.task.ReconcilePass;
import io.swale.task.SwaleException;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The repair path for whatever Kafka lost (spec §7.7, §14 #16): walks the active-runs index, never the
 * keyspace, and for each run advances it, re-cancels a cancelled run, dispatches stale pending instances
 * again, releases due retries and reaps expired leases.
 */
public final class Reconciler {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    private static final int BATCH = 200;


    private final RunStore runs;
    private final TaskStore tasks;
    private final GraphRuns graphRuns;
    private final LeaseReaper reaper;
    private final Dispatcher dispatcher;
    private final long staleDispatchMs;
    private final SwaleMetrics metrics;

    public Reconciler(RunStore runs, TaskStore tasks, GraphRuns graphRuns, LeaseReaper reaper,
            Dispatcher dispatcher, long staleDispatchMs, SwaleMetrics metrics) {
        this.runs = runs;
        this.tasks = tasks;
        this.graphRuns = graphRuns;
        this.reaper = reaper;
        this.dispatcher = dispatcher;
        this.staleDispatchMs = staleDispatchMs;
        this.metrics = metrics;
    }

    public ReconcilePass pass() {
        long t0 = System.nanoTime();
        ReconcilePass pass = walk();
        metrics.reconcilerPass(System.nanoTime() - t0, pass);
        return pass;
    }

    private ReconcilePass walk() {
        List<RunKey> active = runs.activeRuns();
        int submitted = 0, settled = 0, cancelled = 0, redispatched = 0, reaped = 0;
        for (int from = 0; from < active.size(); from += BATCH) {
            List<RunKey> batch = active.subList(from, Math.min(active.size(), from + BATCH));
            List<RunView> views = runs.readAll(batch);
            long now = tasks.serverTimeMs();
            Set<RunKey> present = new HashSet<>();
            for (RunView view : views) {
                present.add(view.key());
                try {
                    int[] repaired = repairInstances(view, now);
                    redispatched += repaired[0];
                    reaped += repaired[1];
                    switch (view.run().state()) {
                        case ACTIVE -> {
                            GraphRuns.Advanced a = graphRuns.advanceAll(view);
                            submitted += a.submitted();
                            settled += a.settled() ? 1 : 0;
                        }
                        case CANCELLED -> {
                            cancelled += graphRuns.cancelInstances(view);
                            dropIfIdle(view);
                        }
                        case COMPLETE, FAILED -> dropIfIdle(view);
                    }
                } catch (SwaleException e) {
                    log.warn("reconciler skipped graph={} partition={} error={}", view.key().graph(),
                            view.key().partition(), e.getMessage());
                }
            }
            batch.stream().filter(k -> !present.contains(k)).forEach(runs::dropActive);
        }
        ReconcilePass pass = new ReconcilePass(active.size(), submitted, settled, cancelled, redispatched, reaped);
        if (submitted + settled + cancelled + redispatched + reaped > 0) {
            log.info("reconciler pass {}", pass);
        }
        return pass;
    }

    /**
     * Returns {redispatched, reaped}. An instance whose read state shows nothing due at {@code now} (the
     * store's time, read after the view) costs no round trip: its dispatch is fresh, its retry not yet due,
     * its lease not yet over. The scripts check again themselves.
     */
    private int[] repairInstances(RunView view, long now) {
        int redispatched = 0, reaped = 0;
        for (TaskInstance i : view.instances().values()) {
            TaskIdentity identity = new TaskIdentity(view.key().graph(), view.key().partition(), i.node(), i.asset(),
                    i.definition(), i.rerun());
            switch (i.status()) {
                case PENDING -> {
                    if (i.dispatchedMs() <= now - staleDispatchMs
                            && tasks.redispatchIfStale(view.key(), i.runId(), staleDispatchMs)) {
                        dispatcher.dispatch(i.pool(), identity);
                        redispatched++;
                    }
                }
                case WAITING -> {
                    if (i.dueMs().map(due -> due <= now).orElse(true)
                            && tasks.releaseDue(view.key(), i.runId()).isPresent()) {
                        tasks.removeDelayed(view.key(), i.runId());
                        dispatcher.dispatch(i.pool(), identity);
                        redispatched++;
                    }
                }
                case RUNNING, CANCELLING -> {
                    if (i.leaseUntilMs().map(lease -> lease > now).orElse(false)) {
                        continue;
                    }
                    reaped += reaper.reap(view.key(), i) ? 1 : 0;
                }
                default -> { }
            }
        }
        return new int[] {redispatched, reaped};
    }

    private void dropIfIdle(RunView view) {
        if (view.instances().values().stream().noneMatch(i -> i.status().isActive())) {
            runs.dropActive(view.key());
        }
    }
}
