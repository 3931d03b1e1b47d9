package io.swale.store;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Graph run records, their node records and task instances, and the active-runs index. */
public interface RunStore {
    /** Create-only: true when this call created the run. */
    boolean create(RunKey key, GraphRunRecord run);

    Optional<RunView> read(RunKey key);

    /** Reads many runs in one pipelined round trip; absent runs are left out. */
    List<RunView> readAll(List<RunKey> keys);

    /** Puts {@code next} only if the stored run record is still at version {@code expected}. */
    boolean compareAndPut(RunKey key, RunVersion expected, GraphRunRecord next);

    /**
     * Puts a settled (or cancelled) record together with its expiry entry, only if the stored run record is
     * still at version {@code expected}.
     */
    boolean compareAndSettle(RunKey key, RunVersion expected, GraphRunRecord settled);

    /** Runs in the active-runs index (active runs, and settled ones with instances still active). */
    List<RunKey> activeRuns();

    void dropActive(RunKey key);

    void markActive(RunKey key);

    /** Partitions with a run, in partition order, starting at {@code from} (inclusive) when given. */
    List<Partition> partitions(String graph, Optional<String> from, int limit);

    /** The last {@code limit} partitions with a run, in partition order. */
    List<Partition> lastPartitions(String graph, int limit);

    /** Only the run records of many runs, one pipelined round trip; absent or malformed runs are left out. */
    Map<RunKey, GraphRunRecord> runRecords(List<RunKey> keys);

    /** Only the task instances of many runs, one pipelined round trip. */
    Map<RunKey, List<TaskInstance>> instances(List<RunKey> keys);

    Set<String> graphsWithRuns();

    /** The store's clock (Redis TIME), the one lease deadlines use. */
    long nowMs();
}
