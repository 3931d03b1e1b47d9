package io.swale.operator;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A one-way signal that an attempt must stop: the run was cancelled, or the worker is giving the attempt up. */
public final class Cancellation {
    /** Why an attempt was stopped; operators only see its message. */
    public interface Reason {
        String message();
    }

    private final List<Runnable> callbacks = new CopyOnWriteArrayList<>();
    private volatile Reason reason;

    public boolean isCancelled() {
        return reason != null;
    }

    /** The message of the reason, empty while not cancelled. */
    public String reason() {
        Reason r = reason;
        return r == null ? "" : r.message();
    }

    /** Whether it was cancelled for exactly this reason. */
    public boolean isCancelledFor(Reason why) {
        return reason == why;
    }

    /** Fires once; later calls do nothing. */
    public void cancel(String why) {
        cancel(() -> why);
    }

    /** Fires once; later calls do nothing. */
    public void cancel(Reason why) {
        synchronized (this) {
            if (reason != null) {
                return;
            }
            reason = why;
        }
        callbacks.forEach(Runnable::run);
    }

    /** Runs {@code callback} on cancel, or at once when already cancelled. */
    public void onCancel(Runnable callback) {
        callbacks.add(callback);
        if (isCancelled()) {
            callback.run();
        }
    }
}
