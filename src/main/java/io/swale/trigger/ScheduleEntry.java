package io.swale.trigger;

import io.swale.cron.CronSchedule;
import io.swale.graph.Partitioning;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The cron entry of one adopted, scheduled graph (spec §4.3).
 *
 * @param definition the adopted definition the entry was built from
 * @param catchupMs the catch-up window, when the graph has one
 * @param activeSinceMs when the schedule became active (adoption, or the pump's start if later): without
 *     catch-up, no occurrence before it fires
 */
public record ScheduleEntry(String graph, String definition, CronSchedule cron, Partitioning partitioning,
        Optional<Long> catchupMs, long activeSinceMs) {

    /** How late a firing may come and still be live, whatever the catch-up window (longer for a slow pump). */
    static final Duration LIVE_LATENESS = Duration.ofMinutes(2);

    /**
     * How late a firing may come and still be live for a pump that looks every {@code tick}: two ticks at least, so
     * that a tick slower than the two minutes never finds a firing too old for a short catch-up window to fire it.
     */
    public static Duration liveLateness(Duration tick) {
        Duration twoTicks = tick.multipliedBy(2);
        return twoTicks.compareTo(LIVE_LATENESS) > 0 ? twoTicks : LIVE_LATENESS;
    }

    public ScheduleEntry {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(cron, "cron");
        Objects.requireNonNull(catchupMs, "catchupMs");
    }

    /** Same expression and catch-up window: the entry stays and keeps its next firing. */
    boolean sameSchedule(CronSchedule other, Optional<Long> otherCatchupMs) {
        // compared as normalized: an edit of spelling only (`mon-fri` for `1-5`, a space) keeps the entry and its next firing
        return cron.normalized().equals(other.normalized()) && catchupMs.equals(otherCatchupMs);
    }

    ScheduleEntry withDefinition(String hash, Partitioning p) {
        return new ScheduleEntry(graph, hash, cron, p, catchupMs, activeSinceMs);
    }

    /**
     * The instant after which the next occurrence fires (spec §4.4). With catch-up: the watermark, or the
     * window start when there is none, never before the window, which is the one of the moment the entry became
     * active (adoption, or the pump's start) during its first ticks, and the tick's after them. Without: the watermark, never before the
     * entry became active, so firings missed before that are dropped; and of those that came while it was active but
     * could not fire (a long outage), the live ones and the latest fire, the older ones are dropped.
     *
     * <p>The window bounds a replay. It never drops an occurrence that came while the entry was active and is at
     * most {@link #LIVE_LATENESS} old, which is live and only late: a tick a few seconds after it, or a pump that
     * took over when the one holding the lock died (its lock lasts a minute). A window shorter than that
     * ({@code catchup = "0s"}, say) otherwise skipped every live firing a tick did not catch at once.
     */
    long lowerBound(Optional<Long> watermark, long nowMs) {
        return lowerBound(watermark, nowMs, LIVE_LATENESS);
    }

    /** As above, where a firing is live for {@code liveLateness}: longer for a pump that looks less often. */
    long lowerBound(Optional<Long> watermark, long nowMs, Duration liveLateness) {
        if (catchupMs.isPresent()) {
            long lateness = liveLateness.toMillis();
            long live = Math.max(nowMs - lateness, activeSinceMs);
            // §4.4's window is (now − catchup, now] at the moment the entry became active, and the first tick comes
            // a moment later: until the lateness has passed, the window ends there, not at the tick
            long windowEnd = nowMs - activeSinceMs <= lateness ? Math.min(activeSinceMs, nowMs) : nowMs;
            long windowStart = Math.min(windowEnd - catchupMs.get(), live);
            return Math.max(watermark.orElse(windowStart), windowStart);
        }
        long since = Math.max(watermark.orElse(activeSinceMs), activeSinceMs);
        if (nowMs - since <= liveLateness.toMillis()) {
            return since;
        }
        // No replay: of the occurrences that came while the entry was active but could not fire (the broker or
        // Redis down for days), those still live fire, and the latest however late; older ones are dropped.
        long live = nowMs - liveLateness.toMillis();
        return cron.previous(Instant.ofEpochMilli(nowMs + 1))
                .map(latest -> Math.max(since, Math.min(latest.toEpochMilli() - 1, live)))
                .orElse(since);
    }

    /** The oldest occurrence that is due at {@code nowMs}, if any. */
    Optional<Instant> due(Optional<Long> watermark, long nowMs) {
        return due(watermark, nowMs, LIVE_LATENESS);
    }

    /** As above, with a firing live for {@code liveLateness}. */
    Optional<Instant> due(Optional<Long> watermark, long nowMs, Duration liveLateness) {
        return cron.next(Instant.ofEpochMilli(lowerBound(watermark, nowMs, liveLateness)))
                .filter(t -> t.toEpochMilli() <= nowMs);
    }
}
