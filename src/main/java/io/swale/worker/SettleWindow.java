package io.swale.worker;

import java.util.function.LongSupplier;

/**
 * How long the end of an attempt may keep reaching for the store: while its lease holds, or for a short time
 * after a lease the worker could not extend. Reaching past a lease is safe because every settle step is fenced
 * by the claim's token, which a reaper changes before it hands the instance on.
 */
interface SettleWindow {
    /** Whether a settle step may still be sent. */
    boolean open();

    /** How long it stays open, in milliseconds; zero or less once closed. */
    long leftMs();

    /** Open until {@code untilNanos} of {@code nanoTime}. */
    static SettleWindow until(long untilNanos, LongSupplier nanoTime) {
        return new SettleWindow() {
            @Override
            public boolean open() {
                return leftNanos() > 0;
            }

            @Override
            public long leftMs() {
                return leftNanos() / 1_000_000;
            }

            private long leftNanos() {
                return untilNanos - nanoTime.getAsLong();
            }
        };
    }
}
