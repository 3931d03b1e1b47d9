package io.swale.worker;

import io.swale.operator.Cancellation;

/** Why the worker stops a running attempt; the attempt's end follows from which one it is. */
public enum CancelReason implements Cancellation.Reason {
    /** The graph run was cancelled: the attempt ends its instance cancelled. */
    RUN_CANCELLED("the graph run was cancelled"),
    /** Another claim took over (the lease expired): whatever the attempt settles is refused. */
    CLAIM_LOST("the claim of the attempt ended"),
    /**
     * The store did not answer the extensions of the lease until it ran out: the attempt ends with a transient
     * error naming the cause (spec §8.2), if the store takes it before a reaper does.
     */
    LEASE_NOT_EXTENDED("the lease of the attempt could not be extended"),
    /**
     * The grant of the attempt's resource leases was taken back or not renewed within its lease, so another holder
     * may have it: the program is stopped, and as its claim still holds, the attempt ends with a transient error
     * naming the grant (a success or a next step it returned meanwhile is kept).
     */
    GRANT_LOST("the grant of its resource leases ended"),
    /** The worker stops the attempt to give its lease back at shutdown: the attempt settles nothing. */
    GIVEN_BACK("the worker shut down and gave the lease back");

    private final String message;

    CancelReason(String message) {
        this.message = message;
    }

    @Override
    public String message() {
        return message;
    }
}
