package io.swale.config.redis;

import java.util.Map;
import java.util.TreeMap;

/**
 * Who the primaries are at one moment: for each part of the key space (the whole of it, or a Cluster slot
 * range) the primary's address and its {@code run_id}, which a restarted or newly promoted server changes.
 *
 * @param primaries by key-space part ("all" or "slots 0-5460")
 */
public record PrimarySnapshot(Map<String, Primary> primaries) {

    public PrimarySnapshot {
        primaries = Map.copyOf(new TreeMap<>(primaries));
    }

    /**
     * One primary.
     *
     * @param address host:port as the topology names it
     * @param runId the server's run_id from INFO server
     */
    public record Primary(String address, String runId) {
        @Override
        public String toString() {
            return address + " run_id " + runId;
        }
    }

    public static PrimarySnapshot single(String address, String runId) {
        return new PrimarySnapshot(Map.of("all", new Primary(address, runId)));
    }
}
