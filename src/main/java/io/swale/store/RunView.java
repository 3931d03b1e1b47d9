package io.swale.store;

import io.swale.record.GraphRunRecord;
import java.util.Map;

/**
 * Everything stored for one graph run, read in one round trip.
 *
 * @param runBytes the run record exactly as stored, the value a compare-and-put compares against
 * @param nodeRecords node records by record field (asset or task identity), raw JSON
 * @param instances task instances by run id
 */
public record RunView(
        RunKey key,
        String runBytes,
        GraphRunRecord run,
        Map<String, String> nodeRecords,
        Map<String, TaskInstance> instances) {}
