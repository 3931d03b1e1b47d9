package io.swale.run;

import io.swale.task.TaskIdentity;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The submissions whose call failed, perhaps after Redis committed them (a read timeout, a reset connection, too few
 * replicas acknowledged). Their event or request comes back and submits again; the store then answers `exists`,
 * which alone would dispatch nothing, leaving a committed instance to the stale-dispatch sweep. One found here is
 * dispatched again instead: a dispatch too many is refused at its claim. An entry is forgotten once answered, or
 * after {@link #MAX_AGE_NANOS}, when the sweep has sent it long since.
 */
final class InDoubtSubmissions {
    static final long MAX_AGE_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final Map<TaskIdentity, Long> since = new ConcurrentHashMap<>();

    /** The submissions of a call that failed. */
    void failed(Collection<TaskIdentity> ids, long nowNanos) {
        since.values().removeIf(t -> nowNanos - t > MAX_AGE_NANOS);
        ids.forEach(id -> since.put(id, nowNanos));
    }

    /** Whether the instance {@code id}, just answered `exists`, was in doubt (within the max age): it is no longer. */
    boolean answered(TaskIdentity id, long nowNanos) {
        if (since.isEmpty()) {
            return false;
        }
        Long at = since.remove(id);
        return at != null && nowNanos - at <= MAX_AGE_NANOS;
    }

    boolean isEmpty() {
        return since.isEmpty();
    }

    /** The instance {@code id} was created by a later call: the failed one never reached Redis. */
    void created(TaskIdentity id) {
        if (!since.isEmpty()) {
            since.remove(id);
        }
    }
}
