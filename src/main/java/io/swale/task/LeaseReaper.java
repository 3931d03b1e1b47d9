package io.swale.task;

import io.swale.record.NodeStatus;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reaps expired leases (spec §14 #9, #10): the holder of a running attempt stopped extending its lease (its
 * worker died, or lost Redis). The instance is dispatched again while attempts remain (the dead attempt
 * counted), ends failed with a lease-expiry error and a dead-letter copy when none is left, and ends
 * cancelled when its run was cancelled meanwhile. A pass reads the lease index for leases that ended and then
 * only the runs they belong to, so its cost follows the leases that expired, not the runs that are active; the
 * reconciler reaps too, as part of its slower full pass, which also finds a lease the index does not hold.
 */
public final class LeaseReaper {
    private static final Logger log = LoggerFactory.getLogger(LeaseReaper.class);
    private static final int BATCH = 200;
    /** How long a lease whose reap failed is passed over: the reconciler's full pass still tries it meanwhile. */
    static final long FAILED_RETRY_MS = 60_000;
    private static final String PASS = "reaper";
    static final String CANCELLED = "the graph run was cancelled";

    private final RunStore runs;
    private final TaskStore tasks;
    private final Terminations terminations;
    private final Dispatcher dispatcher;
    private final RepairFailures failures;
    private final int batch;
    // the leases whose reap failed (an undecodable instance, an unreadable run), until when each is passed over:
    // the index gives the oldest entries first, and kept there they would fill every later batch of their shard
    private final Map<TaskStore.ExpiredLease, Long> failedUntil = new java.util.concurrent.ConcurrentHashMap<>();

    public LeaseReaper(RunStore runs, TaskStore tasks, Terminations terminations, Dispatcher dispatcher,
            RepairFailures failures) {
        this(runs, tasks, terminations, dispatcher, failures, BATCH);
    }

    /** {@code batch}: the expired leases a pass reads per shard of the index, besides those it passes over. */
    public LeaseReaper(RunStore runs, TaskStore tasks, Terminations terminations, Dispatcher dispatcher,
            RepairFailures failures, int batch) {
        this.batch = batch;
        this.runs = runs;
        this.tasks = tasks;
        this.terminations = terminations;
        this.dispatcher = dispatcher;
        this.failures = failures;
    }

    /**
     * Returns how many instances it reaped. A failure on one lease (an undecodable instance, a script error)
     * is logged, counted and kept with its run; the pass goes on to the next lease. A run whose record cannot
     * be read is left to the reconciler, which reports it. Either lease is passed over for {@link
     * #FAILED_RETRY_MS}, so that the leases after it in the index are reaped meanwhile. An index entry whose instance is no longer held (its
     * end was not recorded in the index, or its run is gone) is removed.
     */
    public int pass() {
        long now = runs.nowMs();
        failedUntil.values().removeIf(until -> until <= now);
        Map<RunKey, List<TaskStore.ExpiredLease>> byRun = new LinkedHashMap<>();
        for (TaskStore.ExpiredLease lease : tasks.expiredLeases(now, batch + failedUntil.size())) {
            if (!failedUntil.containsKey(lease)) {
                byRun.computeIfAbsent(lease.key(), k -> new ArrayList<>()).add(lease);
            }
        }
        List<RunKey> keys = List.copyOf(byRun.keySet());
        int reaped = 0;
        for (int from = 0; from < keys.size(); from += BATCH) {
            List<RunKey> batch = keys.subList(from, Math.min(keys.size(), from + BATCH));
            Set<RunKey> read = new HashSet<>();
            for (RunStore.Read r : runs.readEach(batch)) {
                read.add(r.key());
                switch (r) {
                    case RunStore.Read.Found(RunView view) -> reaped += reapExpired(view, byRun.get(view.key()), now);
                    case RunStore.Read.Unreadable u -> byRun.get(u.key())
                            .forEach(lease -> failedUntil.put(lease, now + FAILED_RETRY_MS));
                }
            }
            for (RunKey gone : batch) {
                if (!read.contains(gone)) {
                    byRun.get(gone).forEach(tasks::forgetLease);
                }
            }
        }
        return reaped;
    }

    private int reapExpired(RunView view, List<TaskStore.ExpiredLease> leases, long now) {
        int reaped = 0;
        for (TaskStore.ExpiredLease lease : leases) {
            Optional<String> node = Optional.empty();
            try {
                TaskInstance i = view.instances().get(lease.runId());
                if (i == null || !i.status().holdsLease()) {
                    tasks.forgetLease(lease);
                    continue;
                }
                node = Optional.of(i.node());
                if (i.leaseUntilMs().orElse(0L) <= now && reap(view.key(), i)) {
                    reaped++;
                }
            } catch (RuntimeException e) {
                failures.rethrowOutage(e);
                failures.failed(PASS, view.key(), node, Optional.of(lease.runId()), e);
                failedUntil.put(lease, now + FAILED_RETRY_MS);
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
