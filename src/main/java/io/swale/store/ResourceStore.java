package io.swale.store;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Leases on named resources (docs/resources.md). Every operation is one atomic script on the resources'
 * one hash slot; none touches a run's keys, so a grant and a claim are two steps (the worker's protocol).
 * A waiter's {@code dispatch} is opaque here: what to send again when it may be granted.
 */
public interface ResourceStore {
    /** The outcome of asking for leases. */
    sealed interface Grant {
        /**
         * The dispatches of other waiters that may be granted now, marked woken: the ask freed an expired grant of
         * its own instance that the reap had not freed yet.
         */
        List<String> wake();

        /** Every lease is held; {@code waitedMs} since the instance first waited (0 when it did not). */
        record Granted(long waitedMs, List<String> wake) implements Grant {
            public Granted {
                wake = List.copyOf(wake);
            }

            public Granted(long waitedMs) {
                this(waitedMs, List.of());
            }
        }

        /** Nothing is held; the instance waits in line on every name, {@code blockedBy} the first that refused. */
        record Waiting(String blockedBy, long sinceMs, List<String> wake) implements Grant {
            public Waiting {
                wake = List.copyOf(wake);
            }

            public Waiting(String blockedBy, long sinceMs) {
                this(blockedBy, sinceMs, List.of());
            }
        }
    }

    /** A grant this worker holds, fenced by its grant id. */
    record Holder(String runId, String grantId) {
        public Holder {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(grantId, "grantId");
        }
    }

    /**
     * @param freed whether this call freed a grant (false: it was not, or no longer, this grant id's)
     * @param wake the dispatches of waiters that may be granted now, marked woken
     */
    record Released(boolean freed, List<String> wake) {
        public Released {
            wake = List.copyOf(wake);
        }
    }

    /** What a reap pass did. */
    record Reaped(int freed, List<String> wake) {
        public Reaped {
            wake = List.copyOf(wake);
        }
    }

    /** One resource as the API shows it. */
    record Resource(String name, int capacity, boolean declared, int held, List<HeldBy> holders,
            List<WaitedBy> waiting) {
        public Resource {
            holders = List.copyOf(holders);
            waiting = List.copyOf(waiting);
        }
    }

    record HeldBy(String runId, long deadlineMs) {}

    record WaitedBy(String runId, long sinceMs) {}

    /**
     * A waiter in line, for the stale-waiter check: {@code seenMs} is when a dispatch of it last asked (the
     * fence of {@link #drop}), {@code dispatch} what it would be sent again.
     */
    record Queued(String runId, long seenMs, String dispatch) {}

    /**
     * Takes one lease of every name for {@code runId} under {@code grantId} until now + {@code ttlMs}, all or
     * nothing, if the instance is first in line on each (docs/resources.md, fairness); else queues it. Asked again
     * under the grant id it holds, the grant is answered as granted and lasts until now + {@code ttlMs}.
     */
    Grant grant(String runId, String grantId, List<String> names, long ttlMs, String dispatch);

    /** Frees the grant if it is still {@code holder}'s; with {@code leave}, the instance also leaves every queue. */
    Released release(Holder holder, boolean leave);

    /** The instance leaves every queue it waits in (a cancel); frees nothing. */
    default Released leave(String runId) {
        return release(new Holder(runId, ""), true);
    }

    /** Extends every grant still held to now + {@code ttlMs}; answers the run ids whose grant is gone. */
    List<String> renew(Collection<Holder> holders, long ttlMs);

    /** Frees the grants whose deadline passed and wakes the waiters that may now be granted. */
    Reaped reap(int limit);

    /** Declares a capacity; answers the waiters it lets in. */
    List<String> setCapacity(String name, int capacity);

    /** Every resource declared, held or waited for, by name. */
    Map<String, Resource> resources();

    /** Whether {@code name} has a declared capacity: one key read, where {@link #resources} reads them all. */
    boolean declared(String name);

    /**
     * What a stale-waiter check looks up, each waiter once: the oldest {@code limit} waiters, oldest first, then
     * the first in line on each of up to {@code limit} resources, from one that changes from call to call.
     */
    List<Queued> waitersToCheck(int limit);

    /**
     * Each of {@code stale} (found no longer pending) leaves every queue, unless a dispatch of it asked again
     * since it was read; answers the waiters that may be granted now.
     */
    Reaped drop(Collection<Queued> stale);

    /** The names each of {@code runIds} waits for, for those that wait. */
    Map<String, List<String>> waitingFor(Collection<String> runIds);
}
