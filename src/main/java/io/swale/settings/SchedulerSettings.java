package io.swale.settings;

import static io.swale.settings.PropertyChecks.positive;

import java.time.Duration;
import org.springframework.util.unit.DataSize;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.scheduler.*}: how often the scheduler role's periodic passes run.
 *
 * @param reconcileInterval How often the reconciler pass runs; its first pass runs one interval after start.
 * @param syncInterval How often published definitions are adopted.
 * @param staleDispatch A pending instance not claimed for this long is dispatched again by the reconciler.
 * @param delayedPoll How often due retries and continuations are moved back to their pool.
 * @param reapInterval How often expired leases are looked for (cheaper and more frequent than a reconciler
 *     pass).
 * @param cronTick How often the cron pump looks for due firings. A firing stays live for two ticks, and at least
 *     2 minutes: fired when found that late even under a shorter catch-up window.
 * @param retentionInterval How often the retention pass runs; the sync interval when unset.
 * @param maxTriggerSize A trigger record whose value is larger is dead-lettered at once, unread.
 */
public record SchedulerSettings(
        @DefaultValue("60s") Duration reconcileInterval,
        @DefaultValue("30s") Duration syncInterval,
        @DefaultValue("60s") Duration staleDispatch,
        @DefaultValue("200ms") Duration delayedPoll,
        @DefaultValue("5s") Duration reapInterval,
        @DefaultValue("1s") Duration cronTick,
        Duration retentionInterval,
        @DefaultValue("256KB") DataSize maxTriggerSize) {

    public SchedulerSettings {
        positive("swale.scheduler.reconcile-interval", reconcileInterval);
        positive("swale.scheduler.sync-interval", syncInterval);
        positive("swale.scheduler.stale-dispatch", staleDispatch);
        positive("swale.scheduler.delayed-poll", delayedPoll);
        positive("swale.scheduler.reap-interval", reapInterval);
        positive("swale.scheduler.cron-tick", cronTick);
        // unset follows the sync interval; the accessor then always has a value
        retentionInterval = positive("swale.scheduler.retention-interval",
                retentionInterval == null ? syncInterval : retentionInterval);
        if (maxTriggerSize == null || maxTriggerSize.toBytes() < 1) {
            throw new IllegalArgumentException("swale.scheduler.max-trigger-size must be at least 1 byte, was "
                    + maxTriggerSize);
        }
    }
}
