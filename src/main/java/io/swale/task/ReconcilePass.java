package io.swale.task;

/** What one reconciler pass did, counted per kind of repair. */
public record ReconcilePass(int activeRuns, int submitted, int settled, int cancelled, int redispatched, int reaped) {}
