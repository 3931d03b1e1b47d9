package io.swale.store;

import io.swale.record.RequestRecord;
import java.util.Optional;

/** Request records by request id (spec §5.5, §10), each written once together with its expiry entry. */
public interface RequestStore {
    Optional<RequestRecord> get(String id);

    /**
     * Writes the record under its id with its expiry entry (at its handled time) in one atomic unit; false
     * when the id already has a record.
     */
    boolean putIfAbsent(RequestRecord record);
}
