package io.swale.worker;

import io.swale.store.InstanceStatus;
import io.swale.store.ResourceStore;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskInstance;
import io.swale.task.LeaseWaiter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Removes lease waiters whose task instance is no longer pending (docs/resources.md, "stale waiters"): an
 * instance cancelled, failed, claimed by another dispatch, or gone with its run or graph keeps its place in
 * line until something takes it out, and in line it counts against every waiter behind it. The resource keys
 * live on their own slot, so no script can read the instance: this check reads the oldest waiters and the heads
 * of the resources' lines, looks their instances up, and drops those not pending, fenced so that a dispatch
 * asking again in between keeps its place.
 */
public final class StaleWaiters {
    private final ResourceStore resources;
    private final RunStore runs;
    private final int limit;

    /** {@code limit}: how many of the oldest waiters one pass looks at. */
    public StaleWaiters(ResourceStore resources, RunStore runs, int limit) {
        this.resources = resources;
        this.runs = runs;
        this.limit = limit;
    }

    /** One pass; answers how many it dropped and the waiters they let in. */
    public ResourceStore.Reaped sweep() {
        List<ResourceStore.Queued> queued = resources.waitersToCheck(limit);
        if (queued.isEmpty()) {
            return new ResourceStore.Reaped(0, List.of());
        }
        Map<ResourceStore.Queued, Optional<RunKey>> keys = new LinkedHashMap<>();
        for (ResourceStore.Queued q : queued) {
            keys.put(q, LeaseWaiter.decode(q.dispatch())
                    .filter(w -> w.identity().runId().equals(q.runId()))
                    .map(w -> w.identity().runKey()));
        }
        Map<RunKey, List<TaskInstance>> instances = runs.instances(
                List.copyOf(new LinkedHashSet<>(keys.values().stream().flatMap(Optional::stream).toList())));
        List<ResourceStore.Queued> stale = new ArrayList<>();
        keys.forEach((q, key) -> {
            // a waiter nobody could dispatch again is stale too: it would hold its place for good
            boolean pending = key.map(k -> instances.getOrDefault(k, List.of()).stream()
                    .anyMatch(i -> i.runId().equals(q.runId()) && i.status() == InstanceStatus.PENDING)).orElse(false);
            if (!pending) {
                stale.add(q);
            }
        });
        return resources.drop(stale);
    }
}
