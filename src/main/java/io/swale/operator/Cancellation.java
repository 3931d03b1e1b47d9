package io.swale.operator;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A one-way signal that an attempt must stop: the run was cancelled, or the worker is giving the attempt up. */
public final class Cancellation {
    private final List<Runnable> callbacks = new CopyOnWriteArrayList<>();
    private volatile String reason;

    public boolean isCancelled() {
        return reason != null;
    }

    public String reason() {
        return reason == null ? "" : reason;
    }

    /** Fires once; later calls do nothing. */
    public void cancel(String why) {
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
