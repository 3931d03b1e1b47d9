package io.swale.store;

import io.swale.record.AdminRequest;
import io.swale.record.RequestRecord;
import java.util.Optional;

/** Request records by request id (spec §5.5, §10), each written once together with its expiry entry. */
public interface RequestStore {
    Optional<RequestRecord> get(String id);

    /**
     * Holds the id for this request before the request takes effect: true when the id was free or is already
     * held by an equal request, false when a different request holds it. Of two different requests under one
     * id, at most one ever gets true. {@link #putIfAbsent} reserves too.
     */
    boolean reserve(String id, AdminRequest request);

    /**
     * Writes the record under its id with its expiry entry (at its handled time) in one atomic unit; false
     * when the id already has a record or is reserved for a different request.
     */
    boolean putIfAbsent(RequestRecord record);
}
