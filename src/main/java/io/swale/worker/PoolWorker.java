package io.swale.worker;

import io.swale.operator.Cancellation;
import io.swale.store.TaskStore;
import io.swale.task.Dispatcher;
import io.swale.task.TaskIdentity;
import io.swale.task.TaskStep;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pool on this replica, as its dispatch listener sees it: reserve free {@link WorkerSlots}, claim the
 * dispatches of a poll in Redis together, and hand the claimed attempts to the {@link AttemptRunner} on
 * those slots, so no record is held while an operator runs. A slot is free again once its operator returned;
 * the result is settled beside it. Shutdown is the {@link ShutdownHandOver}'s.
 */
public final class PoolWorker implements DispatchSlots, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PoolWorker.class);

    /** Who this worker is and how long it holds a claim. */
    public record Settings(String workerId, long leaseMs) {}

    /** What a drain did: attempts that finished in the grace period, and leases given back. */
    public record Drained(int finished, List<String> givenBack, long millis) {}

    private final String pool;
    private final TaskStore tasks;
    private final AttemptRunner runner;
    private final Settings settings;
    private final WorkerSlots slots;
    private final ShutdownHandOver handOver;
    // Leases taken before each claim (docs/resources.md), and what each claimed attempt was admitted as
    private final LeaseGate gate;
    private final java.util.Map<String, LeaseGate.Admission> admitted = new java.util.concurrent.ConcurrentHashMap<>();
    private final InDoubtClaims inDoubt;

    public PoolWorker(String pool, int slots, TaskStore tasks, AttemptRunner runner, Dispatcher dispatcher,
            Settings settings) {
        this(pool, slots, tasks, runner, dispatcher, settings, LeaseGate.NONE);
    }

    public PoolWorker(String pool, int slots, TaskStore tasks, AttemptRunner runner, Dispatcher dispatcher,
            Settings settings, LeaseGate gate) {
        this.gate = gate;
        this.pool = pool;
        this.tasks = tasks;
        this.runner = runner;
        this.settings = settings;
        // kept past the lease twice over: by then the reaper has ended an attempt that nobody ran
        this.inDoubt = new InDoubtClaims(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(2 * settings.leaseMs()),
                java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(settings.leaseMs()));
        this.slots = new WorkerSlots(pool, slots, this::runAttempt);
        this.handOver = new ShutdownHandOver(pool, settings.workerId(), this.slots, tasks, dispatcher,
                runner.settlement());
    }

    @Override
    public String pool() {
        return pool;
    }

    public int slots() {
        return slots.slots();
    }

    /** The attempts whose operator runs on this replica now; those settling their result are not counted. */
    public int running() {
        return slots.operatorsRunning();
    }

    public int freeSlots() {
        return slots.free();
    }

    public boolean isDraining() {
        return slots.isDraining();
    }

    /** Called on a pool thread each time an attempt frees its slot (its operator returned), unless draining. */
    public void onSlotFreed(Runnable listener) {
        slots.onFreed(listener);
    }

    /**
     * Reserves up to {@code wanted} free slots for a poll of dispatches, waiting at most {@code waitMs} for
     * the first; none once draining. Every reserved slot is either used by {@link #claimAndRun} or returned
     * with {@link #unreserve}.
     */
    @Override
    public int reserve(int wanted, long waitMs) throws InterruptedException {
        return slots.reserve(wanted, waitMs);
    }

    /** Returns reserved slots that no dispatch used. */
    @Override
    public void unreserve(int count) {
        slots.unreserve(count);
    }

    /**
     * Claims dispatches (a slot reserved for each) in one round trip, runs {@code afterClaims}, then hands each
     * claimed attempt to its slot. Their offsets may be committed once this returns: a claim, not the
     * offset, is what keeps a redelivered dispatch from running twice. Once draining it claims nothing and
     * returns false: those dispatches are left, uncommitted, for another replica. A failure of
     * {@code afterClaims} is thrown once the claimed attempts are handed off.
     */
    @Override
    public boolean claimAndRun(List<TaskIdentity> ids, Runnable afterClaims) {
        if (slots.isDraining()) {
            log.info("dispatches left for another replica: shutting down pool={} count={}", pool, ids.size());
            slots.unreserve(ids.size());
            return false;
        }
        // A dispatch whose leases are not free waits in line in Redis, holding no slot
        List<LeaseGate.Admission> admissions;
        try {
            admissions = admit(ids);
        } catch (RuntimeException e) {
            slots.unreserve(ids.size());
            throw e;
        }
        List<TaskIdentity> claiming = new java.util.ArrayList<>();
        List<LeaseGate.Admission> claimingAs = new java.util.ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (!(admissions.get(i) instanceof LeaseGate.Admission.Waiting)) {
                claiming.add(ids.get(i));
                claimingAs.add(admissions.get(i));
            }
        }
        slots.unreserve(ids.size() - claiming.size());
        List<TaskStore.Claim> claims;
        // each lease runs from no earlier than this: what the worker can be sure it holds
        long claimedAt = System.nanoTime();
        claiming.forEach(id -> TaskStep.reached(TaskStep.Kind.CLAIMING, id));
        List<String> claimIds = claiming.stream().map(inDoubt::claimIdFor).toList();
        try {
            List<TaskStore.ClaimRequest> requests = new java.util.ArrayList<>(claiming.size());
            for (int i = 0; i < claiming.size(); i++) {
                requests.add(new TaskStore.ClaimRequest(claiming.get(i).runKey(), claiming.get(i).runId(),
                        claimIds.get(i)));
            }
            claims = claiming.isEmpty() ? List.of() : tasks.claimAll(requests, settings.leaseMs(), settings.workerId());
        } catch (RuntimeException e) {
            // the leases stay with the claims in doubt (InDoubtClaims): each expires unless its dispatch comes back
            inDoubt.failed(claiming, claimIds, claimingAs.stream().map(PoolWorker::grantId).toList(), System.nanoTime());
            slots.unreserve(claiming.size());
            throw e;
        }
        // what was claimed runs whatever afterClaims does: a claim never handed off would hold its slot for good
        RuntimeException afterClaimsFailed = null;
        try {
            afterClaims.run();
        } catch (RuntimeException e) {
            afterClaimsFailed = e;
        }
        int refused = 0;
        for (int i = 0; i < claiming.size(); i++) {
            TaskIdentity id = claiming.get(i);
            if (claims.get(i) instanceof TaskStore.Claim.Claimed claimed) {
                TaskStep.reached(TaskStep.Kind.CLAIMED, id);
                Cancellation cancellation = new Cancellation();
                LeaseGate.Admission as = claimingAs.get(i);
                if (as instanceof LeaseGate.Admission.Granted g) {
                    gate.hold(g, cancellation);
                }
                admitted.put(id.runId(), as);
                try {
                    slots.run(new WorkerSlots.Running(id, claimed, claimedAt, cancellation));
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    // the drain shut the slots down while this poll claimed (a call that hung past the listener's
                    // stop): the claim goes back now, not after its lease with an attempt used up
                    admitted.remove(id.runId());
                    releaseIfGranted(as);
                    handOver.giveBack(id, claimed.token());
                }
            } else {
                refused++;
                // a grant without its claim is given back at once (docs/resources.md, step 2)
                releaseIfGranted(claimingAs.get(i));
                log.info("dispatch refused at claim graph={} partition={} node={} runId={} state={}", id.graph(),
                        id.partition(), id.node(), id.runId(), ((TaskStore.Claim.Refused) claims.get(i)).state());
            }
        }
        slots.unreserve(refused);
        if (afterClaimsFailed != null) {
            throw afterClaimsFailed;
        }
        return true;
    }

    private List<LeaseGate.Admission> admit(List<TaskIdentity> ids) {
        List<LeaseGate.Admission> out = new java.util.ArrayList<>(ids.size());
        boolean anyInDoubt = !inDoubt.isEmpty();
        java.util.Set<TaskIdentity> seen = new java.util.HashSet<>();
        long now = System.nanoTime();
        try {
            for (TaskIdentity id : ids) {
                // a grant kept for a claim in doubt is asked for by one dispatch of the instance: a second copy in
                // the poll, granted too, would be refused at its claim and release the grant the first runs under
                Optional<String> kept = anyInDoubt && seen.add(id) ? inDoubt.grantIdFor(id, now) : Optional.empty();
                out.add(gate.admit(pool, id, kept));
            }
        } catch (RuntimeException e) {
            // the poll comes back whole: the grants made for it are kept as a claim in doubt keeps its own, and asked
            // again under their ids. Released, each instance would rejoin its resources' lines behind every waiter
            // (docs/resources.md, "Waiting and fairness"); the kept ones go when the dispatch cannot come back
            List<TaskIdentity> granted = new java.util.ArrayList<>();
            List<Optional<String>> grantIds = new java.util.ArrayList<>();
            for (int i = 0; i < out.size(); i++) {
                if (!(out.get(i) instanceof LeaseGate.Admission.Granted g)) {
                    continue;
                }
                if (granted.contains(ids.get(i))) {
                    // a second copy of the dispatch in the poll: one grant is kept for the instance
                    releaseIfGranted(g);
                } else {
                    granted.add(ids.get(i));
                    grantIds.add(Optional.of(g.holder().grantId()));
                }
            }
            inDoubt.failed(granted, granted.stream().map(inDoubt::claimIdFor).toList(), grantIds, System.nanoTime());
            throw e;
        }
        return out;
    }

    private static Optional<String> grantId(LeaseGate.Admission admission) {
        return admission instanceof LeaseGate.Admission.Granted g ? Optional.of(g.holder().grantId())
                : Optional.empty();
    }

    private void releaseIfGranted(LeaseGate.Admission admission) {
        if (admission instanceof LeaseGate.Admission.Granted g) {
            gate.release(g.holder());
        }
    }

    private void runAttempt(WorkerSlots.Running r, Runnable operatorReturned) {
        LeaseGate.Admission as = admitted.remove(r.id().runId());
        boolean released = false;
        try {
            if (runner.run(r.id(), r.claim(), pool, r.claimedAtNanos(), r.cancellation(),
                    as instanceof LeaseGate.Admission.Refused why
                            ? Optional.of(new io.swale.operator.OperatorResult.Failed(why.reason()))
                            : Optional.empty(), operatorReturned)) {
                // its resource leases first: dispatched again while this replica still held them, the instance
                // would queue behind its own grant
                released = true;
                releaseIfGranted(as);
                // given back the moment its program stopped, on its slot: not after the slowest attempt of the drain
                handOver.giveBack(r.id(), r.claim().token());
            }
        } catch (RuntimeException e) {
            log.error("attempt failed to settle runId={} attempt={}", r.id().runId(), r.claim().attempt(), e);
        } finally {
            if (!released) {
                // after the settle: the next holder starts once this attempt has ended (docs/resources.md, step 4)
                releaseIfGranted(as);
            }
        }
    }

    /** Stops claiming at once; the dispatch being looked at now and every later one stay uncommitted. */
    public void beginDrain() {
        slots.beginDrain();
    }

    /**
     * Releases the resource grants kept for claims in doubt: their dispatches will not come back to this worker (it
     * stops), and the next dispatch of such an instance, on another replica, would otherwise wait in line behind its
     * own grant until that expired. A release that fails leaves the grant to expire, as before.
     */
    public void releaseKeptGrants() {
        releaseKeptGrants(runId -> true, Runnable::run);
    }

    /**
     * As above, for the claims in doubt of the run ids {@code which} only (their dispatch partitions were revoked),
     * taken at once and released on {@code releaser}: a rebalance callback must not wait on Redis, which is
     * likely to be slow just when claims are in doubt.
     */
    public void releaseKeptGrants(java.util.function.Predicate<String> which, java.util.concurrent.Executor releaser) {
        java.util.Map<String, String> taken = inDoubt.takeGrants(which);
        if (taken.isEmpty()) {
            return;
        }
        releaser.execute(() -> taken.forEach((runId, grantId) -> {
            log.info("resource grant of a claim in doubt released: its dispatch goes elsewhere pool={} runId={}",
                    pool, runId);
            gate.release(new io.swale.store.ResourceStore.Holder(runId, grantId));
        }));
    }

    /** See {@link ShutdownHandOver#drain}: finish within {@code grace}, then give the leases of the rest back. */
    public Drained drain(Duration grace) throws InterruptedException {
        releaseKeptGrants();
        return handOver.drain(grace);
    }

    @Override
    public void close() {
        releaseKeptGrants();
        slots.close();
    }
}
