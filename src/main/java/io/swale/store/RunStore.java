package io.swale.store;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Graph run records, their node records and task instances, and the active-runs index. */
public interface RunStore {
    /** Create-only: true when this call created the run. */
    boolean create(RunKey key, GraphRunRecord run);

    /** A run for {@link #createEach} to create. */
    record NewRun(RunKey key, GraphRunRecord run) {}

    /**
     * Create-only for several runs, with as few round trips as the store allows: for each run, in order, true
     * when this call created it. This default creates one run at a time.
     */
    default List<Boolean> createEach(List<NewRun> created) {
        return created.stream().map(n -> create(n.key(), n.run())).toList();
    }

    Optional<RunView> read(RunKey key);

    /** Reads many runs in one pipelined round trip; absent runs are left out. */
    List<RunView> readAll(List<RunKey> keys);

    /** One run as {@link #readEach} found it: its view, or why its run record cannot be read. */
    sealed interface Read {
        RunKey key();

        record Found(RunView view) implements Read {
            @Override
            public RunKey key() {
                return view.key();
            }
        }

        record Unreadable(RunKey key, String error) implements Read {}
    }

    /**
     * As {@link #readAll}, but a run whose record does not decode is answered {@link Read.Unreadable} instead of
     * failing the whole batch: a pass over many runs goes on past one bad record.
     */
    List<Read> readEach(List<RunKey> keys);

    /**
     * The last failure of a repair pass on one run (decode, render, script): shown in the run view until a
     * pass repairs the run without failure.
     *
     * @param pass reconciler, reaper or delayed
     */
    record RepairError(long atMs, String pass, String message) {}

    void putRepairError(RunKey key, RepairError error);

    void clearRepairError(RunKey key);

    Optional<RepairError> repairError(RunKey key);

    /** Every run with a repair error, one round trip. */
    Map<RunKey, RepairError> repairErrors();

    /**
     * Puts {@code next} only if the stored run record is still at version {@code expected}; an active
     * {@code next} enters the active-runs index in the same atomic step.
     */
    boolean compareAndPut(RunKey key, RunVersion expected, GraphRunRecord next);

    /**
     * Puts a settled (or cancelled) record together with its expiry entry, only if the stored run record is
     * still at version {@code expected}.
     */
    default boolean compareAndSettle(RunKey key, RunVersion expected, GraphRunRecord settled) {
        return compareAndSettle(key, expected, settled, java.util.List.of());
    }

    /**
     * As above, and only if none of {@code absentRunIds} (run ids the caller's read did not have) is a task
     * instance now, in one atomic step: a rerun that submitted one of them after the caller read the run keeps it
     * active, whether that instance is still active or has already ended. A run settled with no active instance at
     * all leaves the active-runs index in the same step, as {@link #dropActive} would.
     */
    boolean compareAndSettle(RunKey key, RunVersion expected, GraphRunRecord settled, Collection<String> absentRunIds);

    /** One settle of {@link #settleEach}: the arguments of {@link #compareAndSettle}. */
    record Settle(RunKey key, RunVersion expected, GraphRunRecord settled, List<String> absentRunIds) {
        public Settle {
            absentRunIds = List.copyOf(absentRunIds);
        }
    }

    /** What became of one {@link Settle}: whether the run settled, or why that is not known. */
    sealed interface Settled {
        record Done(boolean settled) implements Settled {}

        record Failed(RuntimeException error) implements Settled {}
    }

    /**
     * Settles several runs, each in its own atomic step as {@link #compareAndSettle} does, with one round trip
     * where the store allows; answers in the order of {@code settles}. A step that fails fails its own run only;
     * a store that does not answer at all throws. This default settles one run at a time.
     */
    default List<Settled> settleEach(List<Settle> settles) {
        List<Settled> out = new java.util.ArrayList<>(settles.size());
        for (Settle s : settles) {
            try {
                out.add(new Settled.Done(compareAndSettle(s.key(), s.expected(), s.settled(), s.absentRunIds())));
            } catch (RuntimeException e) {
                out.add(new Settled.Failed(e));
            }
        }
        return out;
    }

    /** Runs in the active-runs index (active runs, and settled ones with instances still active). */
    List<RunKey> activeRuns();

    /**
     * Removes the run from the active-runs index only if it is idle at removal time (gone, or settled with no
     * active instance), checked atomically: a caller's view may be stale. True when it removed it.
     */
    boolean dropActive(RunKey key);

    void markActive(RunKey key);

    /**
     * Partitions with a run, in partition order, starting at {@code from} (inclusive) when given: {@code limit} of
     * them, fewer only at the index's end.
     */
    List<Partition> partitions(String graph, Optional<String> from, int limit);

    /**
     * The newest {@code limit} entries of each graph's index of runs, newest first, every graph's in one pipelined
     * round trip (an entry's run record may be missing: written after it, removed before it, or never written).
     */
    Map<String, List<Partition>> newestPartitions(Collection<String> graphs, int limit);

    /** Only the run records of many runs, one pipelined round trip; absent or malformed runs are left out. */
    Map<RunKey, GraphRunRecord> runRecords(List<RunKey> keys);

    /** Only the task instances of many runs, one pipelined round trip. */
    Map<RunKey, List<TaskInstance>> instances(List<RunKey> keys);

    Set<String> graphsWithRuns();

    /** The store's clock (Redis TIME), the one lease deadlines use. */
    long nowMs();
}
