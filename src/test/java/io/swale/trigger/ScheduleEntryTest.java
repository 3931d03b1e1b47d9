package io.swale.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.cron.CronSchedule;
import io.swale.graph.Partitioning;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which occurrence is due (spec §4.4): catch-up window, watermark, and dropped firings without catch-up. */
class ScheduleEntryTest {
    private static final CronSchedule DAILY = CronSchedule.parse("0 2 * * *");

    private static long ms(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    private static ScheduleEntry entry(Optional<Duration> catchup, String activeSince) {
        return new ScheduleEntry("g", "hash", DAILY, Partitioning.DAILY, catchup.map(Duration::toMillis), ms(activeSince));
    }

    @Test
    void firstAdoptionWithCatchupFiresTheWindowOldestFirst() {
        ScheduleEntry e = entry(Optional.of(Duration.ofDays(3)), "2026-09-16T01:59:59.950Z");
        long now = ms("2026-09-16T01:59:59.950Z");
        assertThat(e.due(Optional.empty(), now)).contains(Instant.parse("2026-09-13T02:00:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-13T02:00:00Z")), now)).contains(Instant.parse("2026-09-14T02:00:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-15T02:00:00Z")), now)).isEmpty();
        assertThat(e.due(Optional.of(ms("2026-09-15T02:00:00Z")), now + 1_000)).contains(Instant.parse("2026-09-16T02:00:00Z"));
    }

    /**
     * The same first adoption, seen by the pump's first tick a second later, as a pump sees it: the window is the one
     * of the moment the schedule became active. Was: (tick − 3d, tick], which left out 13 Sept 02:00, so partition
     * 20260912 never ran.
     */
    @Test
    void theFirstTicksAfterAnAdoptionReplayTheWindowOfTheAdoption() {
        ScheduleEntry e = entry(Optional.of(Duration.ofDays(3)), "2026-09-16T01:59:59.950Z");
        long tick = ms("2026-09-16T02:00:00.950Z");
        assertThat(e.due(Optional.empty(), tick)).contains(Instant.parse("2026-09-13T02:00:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-13T02:00:00Z")), tick)).contains(Instant.parse("2026-09-14T02:00:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-15T02:00:00Z")), tick)).contains(Instant.parse("2026-09-16T02:00:00Z"));
        // a restart after downtime is such a moment too: the window is the one of the pump's start
        ScheduleEntry restarted = entry(Optional.of(Duration.ofDays(1)), "2026-09-20T01:59:59Z");
        assertThat(restarted.due(Optional.of(ms("2026-09-15T02:00:00Z")), ms("2026-09-20T02:00:30Z")))
                .contains(Instant.parse("2026-09-19T02:00:00Z"));
        // once the first ticks are past (two minutes), the window is the tick's again
        assertThat(e.due(Optional.of(ms("2026-09-10T02:00:00Z")), ms("2026-09-16T02:02:00Z")))
                .contains(Instant.parse("2026-09-14T02:00:00Z"));
    }

    @Test
    void aWatermarkOlderThanTheWindowReplaysOnlyTheWindow() {
        ScheduleEntry e = entry(Optional.of(Duration.ofDays(2)), "2026-09-01T00:00:00Z");
        assertThat(e.due(Optional.of(ms("2026-09-01T02:00:00Z")), ms("2026-09-16T03:00:00Z")))
                .contains(Instant.parse("2026-09-15T02:00:00Z"));
    }

    /** Spec §1.5: `0s` is valid; §4.4: "then fire live". Was: a tick after 02:00:00.000 never fired 02:00. */
    @Test
    void aZeroWindowReplaysNothingAndFiresLiveOccurrencesFromALateTick() {
        ScheduleEntry e = entry(Optional.of(Duration.ZERO), "2026-09-16T05:00:00Z");
        assertThat(e.due(Optional.empty(), ms("2026-09-16T05:00:01Z"))).as("02:00 came before it was active").isEmpty();
        assertThat(e.due(Optional.empty(), ms("2026-09-17T02:00:00.300Z"))).contains(Instant.parse("2026-09-17T02:00:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-17T02:00:00Z")), ms("2026-09-17T02:00:01Z"))).isEmpty();
        assertThat(e.due(Optional.of(ms("2026-09-17T02:00:00Z")), ms("2026-09-18T02:00:00.300Z")))
                .contains(Instant.parse("2026-09-18T02:00:00Z"));
    }

    @Test
    void aShortWindowFiresTheOccurrencesOfTheLastTwoMinutesThatATakeOverCameLateFor() {
        ScheduleEntry e = new ScheduleEntry("g", "h", CronSchedule.parse("* * * * *"), Partitioning.HOURLY,
                Optional.of(Duration.ofSeconds(30).toMillis()), ms("2026-09-16T00:00:00Z"));
        // the pump's lock holder died at 09:59:50; another replica took over at 10:03:40
        long now = ms("2026-09-16T10:03:40Z");
        assertThat(e.due(Optional.of(ms("2026-09-16T09:59:00Z")), now)).contains(Instant.parse("2026-09-16T10:02:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-16T10:02:00Z")), now)).contains(Instant.parse("2026-09-16T10:03:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-16T10:03:00Z")), now)).isEmpty();
    }

    @Test
    void aFiringMoreThanTwoMinutesLateIsNoLongerLiveAndTheWindowDropsIt() {
        ScheduleEntry e = entry(Optional.of(Duration.ZERO), "2026-09-01T00:00:00Z");
        // the broker was down from 01:30 to 03:00: the 02:00 firing was never sent
        assertThat(e.due(Optional.of(ms("2026-09-16T02:00:00Z")), ms("2026-09-17T03:00:00Z"))).isEmpty();
        assertThat(e.due(Optional.of(ms("2026-09-16T02:00:00Z")), ms("2026-09-17T02:01:59Z")))
                .contains(Instant.parse("2026-09-17T02:00:00Z"));
    }

    @Test
    void withoutCatchupNothingBeforeTheScheduleBecameActiveFires() {
        ScheduleEntry e = entry(Optional.empty(), "2026-09-16T05:00:00Z");
        assertThat(e.due(Optional.of(ms("2026-09-10T02:00:00Z")), ms("2026-09-16T06:00:00Z"))).isEmpty();
        assertThat(e.due(Optional.empty(), ms("2026-09-17T02:00:00Z"))).contains(Instant.parse("2026-09-17T02:00:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-17T02:00:00Z")), ms("2026-09-18T02:30:00Z")))
                .contains(Instant.parse("2026-09-18T02:00:00Z"));
    }

    /** §4.4: without catchup, no replay. Was: after three days of a broker outage, all three missed days fired. */
    @Test
    void withoutCatchupOnlyTheLatestOfTheOccurrencesAnOutageHeldBackFires() {
        ScheduleEntry e = entry(Optional.empty(), "2026-09-16T05:00:00Z");
        // fired 17 Sept 02:00; the broker was down from 18 Sept 01:00 to 20 Sept 03:00
        Optional<Long> watermark = Optional.of(ms("2026-09-17T02:00:00Z"));
        assertThat(e.due(watermark, ms("2026-09-20T03:00:00Z"))).contains(Instant.parse("2026-09-20T02:00:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-20T02:00:00Z")), ms("2026-09-20T03:00:01Z"))).isEmpty();
        // down from 01:00 to 01:59 only: nothing came meanwhile, and 02:00 fires live
        assertThat(e.due(watermark, ms("2026-09-18T01:59:00Z"))).isEmpty();
        assertThat(e.due(watermark, ms("2026-09-18T02:00:00.100Z"))).contains(Instant.parse("2026-09-18T02:00:00Z"));
        // an occurrence before the entry became active stays dropped
        assertThat(entry(Optional.empty(), "2026-09-20T02:30:00Z").due(watermark, ms("2026-09-20T03:00:00Z")))
                .isEmpty();
    }

    /** A schedule more frequent than the live lateness keeps its live occurrences after a short outage. */
    @Test
    void withoutCatchupTheOccurrencesStillLiveAfterAShortOutageFire() {
        ScheduleEntry e = new ScheduleEntry("g", "h", CronSchedule.parse("* * * * *"), Partitioning.HOURLY,
                Optional.empty(), ms("2026-09-16T00:00:00Z"));
        // fired 10:00; back at 10:02:30: 10:01 is 90 s late, still live
        long now = ms("2026-09-16T10:02:30Z");
        assertThat(e.due(Optional.of(ms("2026-09-16T10:00:00Z")), now)).contains(Instant.parse("2026-09-16T10:01:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-16T10:01:00Z")), now)).contains(Instant.parse("2026-09-16T10:02:00Z"));
        // back at 10:30:30 after firing 10:00: 10:29 and 10:30 are live, the rest dropped
        long later = ms("2026-09-16T10:30:30Z");
        assertThat(e.due(Optional.of(ms("2026-09-16T10:00:00Z")), later)).contains(Instant.parse("2026-09-16T10:29:00Z"));
    }

    @Test
    void anUnsatisfiableScheduleIsNeverDue() {
        ScheduleEntry e = new ScheduleEntry("g", "h", CronSchedule.parse("0 0 30 2 *"), Partitioning.DAILY,
                Optional.of(Duration.ofDays(400).toMillis()), 0);
        assertThat(e.due(Optional.empty(), ms("2026-09-16T00:00:00Z"))).isEmpty();
    }
    /**
     * A pump that ticks every 5 minutes finds an hourly firing 3 minutes late: with a 1-minute catch-up window it is
     * still live and fires. Was: a firing was live for a fixed 2 minutes, and a tick landing at :03 every hour never
     * fired the graph at all.
     */
    @Test
    void aSlowPumpFiresALiveOccurrenceItFindsLaterThanTwoMinutes() {
        ScheduleEntry e = new ScheduleEntry("g", "hash", CronSchedule.parse("0 * * * *"), Partitioning.HOURLY,
                Optional.of(60_000L), ms("2026-09-16T00:00:00Z"));
        Duration live = ScheduleEntry.liveLateness(Duration.ofMinutes(5));

        assertThat(live).isEqualTo(Duration.ofMinutes(10));
        assertThat(e.due(Optional.of(ms("2026-09-16T09:00:00Z")), ms("2026-09-16T10:03:00Z"), live))
                .contains(Instant.parse("2026-09-16T10:00:00Z"));
        assertThat(e.due(Optional.of(ms("2026-09-16T08:00:00Z")), ms("2026-09-16T10:03:00Z"), live))
                .as("09:00 is past the window and no longer live").contains(Instant.parse("2026-09-16T10:00:00Z"));
        assertThat(ScheduleEntry.liveLateness(Duration.ofSeconds(1))).isEqualTo(ScheduleEntry.LIVE_LATENESS);
    }

    /** An edit of spelling only keeps the entry (and its next firing); a changed expression or window does not. */
    @Test
    void theSameScheduleIsTheSameExpressionHoweverSpelledAndTheSameWindow() {
        ScheduleEntry e = new ScheduleEntry("g", "h", CronSchedule.parse("0 6 * * mon-fri"), Partitioning.DAILY,
                Optional.of(3_600_000L), 0);
        assertThat(e.sameSchedule(CronSchedule.parse("0  6 * * 1-5"), Optional.of(3_600_000L))).isTrue();
        assertThat(e.sameSchedule(CronSchedule.parse("0 6 * * MON-FRI"), Optional.of(3_600_000L))).isTrue();
        assertThat(e.sameSchedule(CronSchedule.parse("0 7 * * 1-5"), Optional.of(3_600_000L))).isFalse();
        assertThat(e.sameSchedule(CronSchedule.parse("0 6 * * 1-5"), Optional.empty())).isFalse();
    }
}
