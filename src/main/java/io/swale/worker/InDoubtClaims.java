package io.swale.worker;

import io.swale.task.TaskIdentity;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The claims whose outcome this worker does not know: their call failed (a read timeout, a reset connection, too
 * few replicas), perhaps after Redis had committed them. The dispatch comes back with the poll, and is claimed
 * again under the same claim id, so that a claim that did commit answers its attempt instead of refusing it as
 * running, which would leave that attempt to burn until its lease expires (with no retry left, a node failed
 * that never ran). An entry is forgotten once its dispatch is claimed again, or after {@code maxAgeNanos}, when
 * its lease has long expired and the dispatch went elsewhere.
 *
 * <p>The leases granted for such a claim are kept, not released: were they freed, the dispatch that comes back would
 * queue behind the waiters they let in, while the claim that did commit burned its lease unrun. It asks again under
 * the same grant id, which Redis grants again at once while that grant lives (docs/resources.md). When the dispatch
 * cannot come back to this worker (its partitions were taken away, or the worker stops), the grants are
 * {@linkplain #takeGrants() taken} and released: kept, they would hold their resources for a lease, and the
 * instance's next dispatch, elsewhere, would wait in line behind its own grant.
 *
 * <p>A claim id starts with a random prefix of this worker's incarnation: a worker restarted under the same
 * configured id, given its predecessor's dispatches again, must not have its claims taken for the predecessor's
 * and answered with attempts that a killed process left running.
 */
final class InDoubtClaims {
    private record Entry(String claimId, Optional<String> grantId, long sinceNanos) {}

    private final String incarnation = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36) + ".";
    private final AtomicLong next = new AtomicLong();
    private final Map<TaskIdentity, Entry> entries = new ConcurrentHashMap<>();
    // when each kept grant was first kept: claims that keep failing must not pin it past one lease
    private final Map<String, Long> keptSince = new ConcurrentHashMap<>();
    private final long maxAgeNanos;
    private final long grantMaxAgeNanos;

    InDoubtClaims(long maxAgeNanos) {
        this(maxAgeNanos, maxAgeNanos);
    }

    /** {@code grantMaxAgeNanos}: how long a grant is asked for again after its claim was first in doubt. */
    InDoubtClaims(long maxAgeNanos, long grantMaxAgeNanos) {
        this.maxAgeNanos = maxAgeNanos;
        this.grantMaxAgeNanos = grantMaxAgeNanos;
    }

    /** The id to claim {@code id} under: the one in doubt, if any, else a new one. */
    String claimIdFor(TaskIdentity id) {
        Entry e = entries.remove(id);
        return e != null ? e.claimId() : incarnation + Long.toString(next.incrementAndGet(), 36);
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * The grant id of the leases held for the claim in doubt of {@code id}, if it has any and was first kept within
     * the grant's max age; the entry stays.
     */
    Optional<String> grantIdFor(TaskIdentity id, long nowNanos) {
        Entry e = entries.get(id);
        return e == null ? Optional.empty() : e.grantId().filter(g -> {
            Long since = keptSince.get(g);
            return since != null && nowNanos - since <= grantMaxAgeNanos;
        });
    }

    /**
     * The grant ids kept for the claims in doubt of the run ids {@code which}, by run id, each taken once: the entries
     * keep their claim ids (a claim that did commit is still answered when its dispatch comes back) and ask for
     * leases anew. A grant whose claim was asked again is not among them: it may back an attempt that runs.
     */
    java.util.Map<String, String> takeGrants(java.util.function.Predicate<String> which) {
        java.util.Map<String, String> taken = new java.util.HashMap<>();
        for (Map.Entry<TaskIdentity, Entry> kept : entries.entrySet()) {
            Entry e = kept.getValue();
            if (e.grantId().isEmpty() || !which.test(kept.getKey().runId())) {
                continue;
            }
            if (entries.replace(kept.getKey(), e, new Entry(e.claimId(), Optional.empty(), e.sinceNanos()))) {
                taken.put(kept.getKey().runId(), e.grantId().get());
                keptSince.remove(e.grantId().get());
            }
        }
        return taken;
    }

    /** The claims of a call that failed, each with the id it was asked under; none held leases. */
    void failed(List<TaskIdentity> ids, List<String> claimIds, long nowNanos) {
        failed(ids, claimIds, java.util.Collections.nCopies(ids.size(), Optional.empty()), nowNanos);
    }

    /** The claims of a call that failed, each with the id it was asked under and the grant id of its leases. */
    void failed(List<TaskIdentity> ids, List<String> claimIds, List<Optional<String>> grantIds, long nowNanos) {
        entries.values().removeIf(e -> nowNanos - e.sinceNanos() > maxAgeNanos);
        keptSince.values().removeIf(since -> nowNanos - since > maxAgeNanos);
        for (int i = 0; i < ids.size(); i++) {
            entries.put(ids.get(i), new Entry(claimIds.get(i), grantIds.get(i), nowNanos));
            grantIds.get(i).ifPresent(g -> keptSince.putIfAbsent(g, nowNanos));
        }
    }
}
