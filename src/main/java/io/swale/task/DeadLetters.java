package io.swale.task;

import io.swale.store.AttemptRecord;
import java.util.List;

/** Where an informational copy of a failed dispatch goes; recovery is always a rerun, never a replay. */
public interface DeadLetters {
    /** A copy of the dispatch of an instance that ended failed, with the attempts it used. */
    record DeadLetter(String pool, TaskIdentity identity, long attempts, long maxAttempts, String lastError,
            List<AttemptRecord> history) {
        public DeadLetter {
            history = List.copyOf(history);
        }
    }

    void send(DeadLetter letter);
}
