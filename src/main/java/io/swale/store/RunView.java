package io.swale.store;

import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import java.util.Map;

/**
 * Everything stored for one graph run, read in one round trip.
 *
 * @param version the version of the run record as read, the value a compare-and-put compares against
 * @param nodeRecords node records by {@link RecordField#key()}; a malformed record throws when looked up
 * @param instances task instances by run id
 * @param growths the stored declared growths by declaring node (docs/dynamic-graphs.md §8), as stored text
 */
public record RunView(
        RunKey key,
        RunVersion version,
        GraphRunRecord run,
        Map<String, NodeRecord> nodeRecords,
        Map<String, TaskInstance> instances,
        Map<String, String> growths) {

    /** A run without declared growth. */
    public RunView(RunKey key, RunVersion version, GraphRunRecord run, Map<String, NodeRecord> nodeRecords,
            Map<String, TaskInstance> instances) {
        this(key, version, run, nodeRecords, instances, Map.of());
    }
}
