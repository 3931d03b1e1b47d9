package io.swale.task;

import io.swale.graph.Partition;
import java.util.Optional;

/**
 * The dispatch a task instance waiting for leases gets again when it may be granted: its pool and identity,
 * as one line-separated text that the resource store keeps with the waiter (docs/resources.md).
 */
public record LeaseWaiter(String pool, TaskIdentity identity) {
    public String encode() {
        return String.join("\n", pool, identity.graph(), identity.partition().key(), identity.node(),
                identity.definition(), Long.toString(identity.rerun()), identity.asset().orElse(""));
    }

    /** Empty when the text is not one this class wrote (nothing to dispatch). */
    public static Optional<LeaseWaiter> decode(String text) {
        String[] f = text.split("\n", -1);
        if (f.length != 7 || !Partition.isValid(f[2]) || !TaskIdentity.isRerunCount(f[5])) {
            return Optional.empty();
        }
        return Optional.of(new LeaseWaiter(f[0], new TaskIdentity(f[1], Partition.of(f[2]), f[3],
                f[6].isEmpty() ? Optional.empty() : Optional.of(f[6]), f[4], Long.parseLong(f[5]))));
    }
}
