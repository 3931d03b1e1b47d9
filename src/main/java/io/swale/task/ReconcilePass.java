package io.swale.task;

/**
 * What one reconciler pass did, counted per kind of repair.
 *
 * @param failed runs whose repair failed this pass (each logged, counted and kept in its run view)
 */
public record ReconcilePass(int activeRuns, int submitted, int settled, int cancelled, int redispatched, int reaped,
        int failed) {}
