package io.swale.store;

import java.util.Optional;

/** Request records by request id (spec §5.5, §10), each written once together with its expiry entry. */
public interface RequestStore {
    Optional<String> get(String id);

    /** Writes the record and its expiry entry in one atomic unit; false when the id already has a record. */
    boolean putIfAbsent(String id, String recordJson, long handledAtMs);
}
