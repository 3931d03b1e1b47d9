package io.swale.trigger;

/** Header names of a cron firing on {@code swale.triggers} (spec §4.6). */
public final class TriggerHeaders {
    public static final String GRAPH = "swale.graph";
    public static final String FIRE_MS = "cron.fire_ms";
    public static final String PREVIOUS_FIRE_MS = "cron.previous_fire_ms";

    private TriggerHeaders() {}
}
