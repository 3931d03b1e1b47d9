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

    /**
     * Returns once the copy is stored where it goes.
     *
     * @throws Undeliverable when no later try can store it either (too large, not authorised)
     * @throws RuntimeException when this try did not store it
     */
    void send(DeadLetter letter);

    /** A copy that no try can send: it is given up, not sent again. */
    final class Undeliverable extends RuntimeException {
        public Undeliverable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
