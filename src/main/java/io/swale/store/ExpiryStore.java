package io.swale.store;

import java.util.List;
import java.util.Optional;

/** The expiry index (spec §12) and the removal of what it points at. */
public interface ExpiryStore {
    /**
     * One entry: a target written at a time.
     *
     * @param target {@code run:<graph>/<partition>} or {@code req:<id>}
     */
    record Entry(String target, long atMs) {}

    /** Entries with time ≤ {@code maxMs}, oldest first (then by target), skipping the first {@code offset}. */
    List<Entry> due(long maxMs, int offset, int limit);

    /** Deletes the entry if it still has this time; true when it did. */
    boolean removeEntry(Entry entry);

    /** The run record with its version; a malformed record is a {@link io.swale.record.RecordException}. */
    Optional<StoredRun> run(RunKey key);

    /**
     * Takes a run that no longer exists out of its graph's run index, where a removal that stopped between the
     * delete and the index (a crash) left it; nothing when the run exists.
     */
    void unlistIfAbsent(RunKey key);

    /**
     * If the run record is still at version {@code expected}: deletes it with its node records, task instances and task
     * inputs in one atomic step on the run's keys, then its index entries and the expiry entry. True when the
     * run was removed; false when it changed meanwhile (nothing is deleted).
     */
    boolean expireRun(RunKey key, RunVersion expected, Entry entry);

    /** What {@link #expireRequest} did. */
    enum RequestExpiry {
        /** The record and its entry were deleted. */
        REMOVED,
        /** The record is absent or was written at another time: only the entry was deleted. */
        STALE,
        /** The record changed while it was read, or its stale entry could not be deleted: nothing was deleted. */
        CHANGED
    }

    /**
     * If the request record {@code id} still has the entry's handled time: deletes the record and the entry in
     * one atomic step. A malformed record is a {@link io.swale.record.RecordException}.
     */
    RequestExpiry expireRequest(String id, Entry entry);
}
