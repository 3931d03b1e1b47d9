package io.swale.task;

/**
 * What one reconciler pass did, counted per kind of repair.
 *
 * @param restored node records written back from the instances that ended without theirs (spec §14 #6)
 * @param failed runs whose repair failed this pass (each logged, counted and kept in its run view)
 */
public record ReconcilePass(int activeRuns, int submitted, int settled, int cancelled, int redispatched, int reaped,
        int restored, int failed) {}
