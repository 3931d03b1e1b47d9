package io.swale.worker;

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
}
