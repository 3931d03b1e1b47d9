package io.swale.pool;

import io.swale.scheduler.TaskIdentity;

/** Where an informational copy of a failed dispatch goes; recovery is always a rerun, never a replay. */
public interface DeadLetters {
    void send(String pool, TaskIdentity identity, long attempts, long maxAttempts, String lastError);
}
