package io.swale.worker;

import io.swale.record.NodeRecord;
import io.swale.store.AttemptRecord;
import io.swale.store.PendingInstance;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.TaskInput;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/**
 * One running instance in a store that can be taken down, on a fake clock (ns) shared with the worker under
 * test. Fenced like the scripts: a finish or park with another token, or once the lease has expired, is refused.
 * A call while down throws (and may take time, as a connect timeout does).
 */
class FakeTaskStore implements TaskStore {
    final AtomicLong clock;
    final long token = 7;
    volatile boolean down;
    /** What a call while down costs on the fake clock. */
    volatile Duration failureTakes = Duration.ZERO;
    /** Calls that fail although the store answers, before they succeed. */
    volatile int failNext;
    /** The next finish commits, then its answer is lost (the call throws). */
    volatile boolean loseNextAnswer;

    String state = "running";
    long leaseUntil;
    long due;
    final List<NodeRecord> written = new ArrayList<>();
    final List<Long> scheduled = new ArrayList<>();
    int heartbeats;
    int finishes;
    int parks;
    String lastParkError = "";
    boolean owedDeadLetter;

    FakeTaskStore(AtomicLong clock, Duration lease) {
        this.clock = clock;
        this.leaseUntil = clock.get() + lease.toNanos();
    }

    private void reachable() {
        if (down) {
            clock.addAndGet(failureTakes.toNanos());
            throw new RuntimeException("Failed to connect to any host resolved for DNS name");
        }
        if (failNext > 0) {
            failNext--;
            throw new RuntimeException("LOADING Redis is loading the dataset in memory");
        }
    }

    /** Whether the store itself still sees the lease (the reaper would not take the instance). */
    boolean leaseHolds() {
        return !state.equals("running") || clock.get() < leaseUntil;
    }

    private boolean holds(long t) {
        return t == token && state.equals("running") && clock.get() < leaseUntil;
    }

    @Override
    public synchronized Heartbeat heartbeat(RunKey key, String runId, long t, long leaseMs) {
        reachable();
        heartbeats++;
        if (t == token && state.equals("cancelling")) {
            return Heartbeat.CANCELLING;
        }
        if (!holds(t)) {
            return Heartbeat.LOST;
        }
        if (leaseMs > 0) {
            leaseUntil = clock.get() + Duration.ofMillis(leaseMs).toNanos();
        }
        return Heartbeat.RUNNING;
    }

    @Override
    public synchronized Finish finish(RunKey key, RecordField field, long t, NodeRecord record) {
        reachable();
        finishes++;
        if (t == token && state.equals(record.status().wireName())) {
            return Finish.SETTLED;
        }
        if (t == token && state.equals("cancelling")) {
            if (record.status() != io.swale.record.NodeStatus.CANCELLED) {
                return Finish.CANCELLING;
            }
        } else if (!holds(t)) {
            return Finish.LOST;
        }
        state = record.status().wireName();
        written.add(record);
        if (loseNextAnswer) {
            loseNextAnswer = false;
            throw new RuntimeException("Unexpected end of stream");
        }
        return Finish.OK;
    }

    @Override
    public synchronized Finish finishDeadLettered(RunKey key, RecordField field, long t, NodeRecord record) {
        Finish f = finish(key, field, t, record);
        if (f == Finish.OK) {
            owedDeadLetter = true;
        }
        return f;
    }

    @Override
    public synchronized OwedDeadLetter takeOwedDeadLetter(RunKey key, String runId, long waitMs, long limitMs) {
        reachable();
        return owedDeadLetter ? OwedDeadLetter.SEND : OwedDeadLetter.NONE;
    }

    @Override
    public synchronized void deadLetterSent(RunKey key, String runId) {
        reachable();
        owedDeadLetter = false;
    }

    @Override
    public synchronized Park park(RunKey key, String runId, long t, long delayMs, String error, boolean nextStep,
            Optional<JsonNode> stepState) {
        reachable();
        parks++;
        if (t == token && state.equals("waiting")) {
            return new Park.Waiting(due);
        }
        if (!holds(t)) {
            return new Park.Lost();
        }
        state = "waiting";
        lastParkError = error;
        due = Duration.ofNanos(clock.get()).toMillis() + delayMs;
        // the park enters the delayed set in the same step, as the store's contract says
        scheduled.add(due);
        if (loseNextAnswer) {
            loseNextAnswer = false;
            throw new RuntimeException("Unexpected end of stream");
        }
        return new Park.Waiting(due);
    }

    @Override
    public synchronized void scheduleDelayed(RunKey key, String runId, long dueMs) {
        reachable();
        scheduled.add(dueMs);
    }

    @Override
    public List<AttemptRecord> history(RunKey key, String runId) {
        return List.of();
    }

    @Override
    public Submit submit(RunKey key, String runId, PendingInstance instance, TaskInput input,
            Optional<RequestWrite> request) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Claim claim(RunKey key, String runId, long leaseMs, String worker, String claimId) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<TaskInstance> releaseDue(RunKey key, String runId) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean redispatchIfStale(RunKey key, String runId, long staleMs) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean redispatchAfterFault(RunKey key, String runId, long staleMs) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Reap reap(RunKey key, String runId) {
        throw new UnsupportedOperationException();
    }

    @Override
    public GiveBack giveBack(RunKey key, String runId, long t, String reason) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, List<AttemptRecord>> histories(RunKey key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Cancel cancel(RunKey key, RecordField field, NodeRecord cancelled) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Cancel cancelOfCancelledRun(RunKey key, RecordField field, NodeRecord cancelled) {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<Delayed> dueDelayed(int limit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean removeDelayed(RunKey key, String runId, long dueMs) {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<ExpiredLease> expiredLeases(long nowMs, int limitPerShard) {
        throw new UnsupportedOperationException("the reaper is not part of the worker tests");
    }

    @Override
    public boolean forgetLease(ExpiredLease lease) {
        throw new UnsupportedOperationException("the reaper is not part of the worker tests");
    }

    @Override
    public List<ItemSubmit> submitItems(io.swale.store.RunKey key, String itemPrefix, int maxActive,
            List<SubmitRequest> requests) {
        throw new UnsupportedOperationException("mapped nodes are not part of the worker tests");
    }

    @Override
    public Derive derive(io.swale.store.RunKey key, io.swale.store.RunVersion read, io.swale.store.RecordField field,
            io.swale.record.NodeRecord record) {
        throw new UnsupportedOperationException("mapped nodes are not part of the worker tests");
    }
}
