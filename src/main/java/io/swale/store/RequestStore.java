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
     * Reserves the id as {@link #reserve} does and makes this call its one handler, for at most
     * {@code maxHandling} or until {@link #release}: of two equal requests racing under one id (a client's
     * retry while its first try is still being handled), one is applied and the other learns it is
     * {@link Hold.Busy}.
     */
    Hold hold(String id, AdminRequest request, java.time.Duration maxHandling);

    /**
     * Gives this call's handling of the id {@code maxHandling} again from now, for a handling that outlasts it:
     * false when the call no longer holds the id (its time ran out and another call may have taken it).
     */
    boolean renew(String id, Hold.Held held, java.time.Duration maxHandling);

    /** Ends this call's handling of the id (the outcome is recorded, or handling failed): an equal request may go on. */
    void release(String id, Hold.Held held);

    /** What {@link #hold} found. */
    sealed interface Hold {
        /** This call handles the request; {@link #release} it after. */
        record Held(String token) implements Hold {}

        /** Another call handles an equal request under this id right now. */
        record Busy() implements Hold {}

        /** A different request holds the id. */
        record Taken() implements Hold {}
    }

    /**
     * Writes the record under its id with its expiry entry (at its handled time) in one atomic unit; false
     * when the id already has a record or is reserved for a different request.
     */
    boolean putIfAbsent(RequestRecord record);
}
