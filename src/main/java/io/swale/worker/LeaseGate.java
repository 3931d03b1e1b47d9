package io.swale.worker;

import io.swale.operator.Cancellation;
import io.swale.store.ResourceStore;
import io.swale.task.TaskIdentity;
import java.util.List;
import java.util.Optional;

/**
 * What stands between a dispatch and its claim when its node has {@code leases} (docs/resources.md): the
 * grant before the claim, the renewal while the attempt runs, the release after it.
 */
public interface LeaseGate {
    /** How a dispatch may go on. */
    sealed interface Admission {
        /** The node leases nothing: claim as ever. */
        record Free() implements Admission {}

        /**
         * Every lease is held by {@code holder}: claim, then run, renew and release. {@code askedAtNanos}: when
         * the grant was asked for ({@link System#nanoTime}), the latest its lease can have started.
         */
        record Granted(ResourceStore.Holder holder, List<String> names, long askedAtNanos) implements Admission {}

        /** The instance waits in line for {@code blockedBy}: no claim, no slot; a release dispatches it again. */
        record Waiting(String blockedBy) implements Admission {}

        /** The lease names cannot be made for this instance: claim it and fail it with {@code reason}. */
        record Refused(String reason) implements Admission {}
    }

    /** A gate for workers that never lease. */
    LeaseGate NONE = new LeaseGate() {
        @Override
        public Admission admit(String pool, TaskIdentity id, Optional<String> grantId) {
            return new Admission.Free();
        }

        @Override
        public void hold(Admission.Granted grant, Cancellation cancellation) {}

        @Override
        public void release(ResourceStore.Holder holder) {}
    };

    /** As {@link #admit(String, TaskIdentity, Optional)} under a new grant id. */
    default Admission admit(String pool, TaskIdentity id) {
        return admit(pool, id, Optional.empty());
    }

    /**
     * Takes the leases of the instance's node, or queues it for them. {@code grantId}: the id of a grant this worker
     * may hold already (its claim's outcome unknown), which is granted again at once while it lives.
     */
    Admission admit(String pool, TaskIdentity id, Optional<String> grantId);

    /** Renews the grant at each heartbeat until released; a lost grant cancels the attempt. */
    void hold(Admission.Granted grant, Cancellation cancellation);

    /** Frees the grant (fenced by its id) and dispatches the waiters it lets in; a failure leaves it to expire. */
    void release(ResourceStore.Holder holder);
}
