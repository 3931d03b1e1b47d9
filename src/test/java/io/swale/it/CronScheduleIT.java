package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.kafka.KafkaTriggerPublisher;
import io.swale.record.GraphRunRecord;
import io.swale.run.DefinitionCatalog;
import io.swale.store.DefinitionStore;
import io.swale.store.WatermarkStore;
import io.swale.trigger.CronPump;
import io.swale.trigger.Trigger;
import io.swale.trigger.TriggerHandler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The cron pump on real Kafka and Redis, driven tick by tick with the clock moved forward (spec §4.2–§4.4). */
class CronScheduleIT extends IntegrationSupport {

    @Autowired
    private CronPump pump;

    @Autowired
    private DefinitionStore definitions;

    @Autowired
    private DefinitionCatalog catalog;

    @Autowired
    private WatermarkStore watermarks;

    @Autowired
    private KafkaTriggerPublisher publisher;

    @Autowired
    private TriggerHandler triggers;

    @Autowired
    private redis.clients.jedis.UnifiedJedis redis;

    @Autowired
    private io.swale.settings.SwaleProperties props;

    /** A pump as a freshly started replica has it. */
    private CronPump newPump() {
        return new CronPump(definitions, catalog, watermarks, publisher, clock);
    }

    @Test
    void catchupReplaysTheWindowThenFiresLive() {
        clock.set("2026-09-16T01:59:59.950Z");
        String hash = publish(dailyGraph("cron_daily", Optional.of("0 2 * * *"), Optional.of("3d")));

        assertThat(pump.tick().fired("cron_daily")).isEqualTo(3);
        awaitRun("cron_daily", "20260914");
        assertThat(partitions("cron_daily")).containsExactly("20260912", "20260913", "20260914");
        assertThat(pump.tick().fired("cron_daily")).isZero();
        assertThat(watermarks.watermarks()).containsEntry("cron_daily", Instant.parse("2026-09-15T02:00:00Z").toEpochMilli());

        clock.advance(Duration.ofSeconds(1));
        assertThat(pump.tick().fired("cron_daily")).isEqualTo(1);
        assertThat(awaitRun("cron_daily", "20260915").definition()).isEqualTo(hash);
        assertThat(partitions("cron_daily")).containsExactly("20260912", "20260913", "20260914", "20260915");
        assertThat(watermarks.watermarks()).containsEntry("cron_daily", Instant.parse("2026-09-16T02:00:00Z").toEpochMilli());
    }

    /**
     * A pump ticked every 5 minutes finds the 02:00 firing at 02:03, past a 1-minute catch-up window: it is live and
     * fires. Was: a firing was live for a fixed 2 minutes, so a tick landing 3 minutes after every occurrence never
     * fired the graph at all.
     */
    @Test
    void aPumpTickedEveryFiveMinutesFiresWhatItFindsThreeMinutesLate() {
        clock.set("2026-10-10T01:00:00Z");
        publish(dailyGraph("cron_slow", Optional.of("0 2 * * *"), Optional.of("1m")));
        CronPump slow = new CronPump(definitions, catalog, watermarks, publisher, clock, Duration.ofMinutes(5));
        assertThat(slow.tick().fired("cron_slow")).isZero();

        clock.set("2026-10-10T02:03:00Z");
        assertThat(slow.tick().fired("cron_slow")).isEqualTo(1);
        awaitRun("cron_slow", "20261009");
        assertThat(slow.tick().fired("cron_slow")).isZero();
    }

    @Test
    void anEditAppliesFromTheNextFiringWithTheNewHash() {
        clock.set("2026-09-20T01:00:00Z");
        String first = publish(dailyGraph("cron_edit", Optional.of("0 2 * * *"), Optional.empty()));
        clock.set("2026-09-20T02:00:00.500Z");
        assertThat(pump.tick().fired("cron_edit")).isEqualTo(1);
        assertThat(awaitRun("cron_edit", "20260919").definition()).isEqualTo(first);

        clock.set("2026-09-20T03:00:00Z");
        String second = publish(dailyGraph("cron_edit", Optional.of("0 */12 * * *"), Optional.empty()));
        assertThat(second).isNotEqualTo(first);
        assertThat(get("/api/v1/graphs/cron_edit").body().get("schedule").asString()).isEqualTo("0 */12 * * *");
        assertThat(pump.tick().fired("cron_edit")).isZero();

        clock.set("2026-09-20T12:00:00.500Z");
        assertThat(pump.tick().fired("cron_edit")).isEqualTo(1);
        // the 12:00 firing runs the same day, with the definition adopted when it is handled
        assertThat(awaitRun("cron_edit", "20260920").definition()).isEqualTo(second);
        assertThat(run("cron_edit", "20260919").map(GraphRunRecord::definition)).contains(first);

        clock.set("2026-09-21T00:00:00.500Z");
        assertThat(pump.tick().fired("cron_edit")).isEqualTo(1);
        await().atMost(WAIT).until(() -> watermarks.watermarks().get("cron_edit")
                == Instant.parse("2026-09-21T00:00:00Z").toEpochMilli());
        // the 00:00 firing runs the previous day, which already has its run: nothing new starts
        clock.set("2026-09-21T12:00:00.500Z");
        assertThat(pump.tick().fired("cron_edit")).isEqualTo(1);
        awaitRun("cron_edit", "20260921");
        assertThat(partitions("cron_edit")).containsExactly("20260919", "20260920", "20260921");
    }

    @Test
    void downtimeReplaysTheMissedFiringsOnce() {
        clock.set("2026-10-01T02:00:30Z");
        publish(dailyGraph("cron_down", Optional.of("0 2 * * *"), Optional.of("3d")));
        assertThat(pump.tick().fired("cron_down")).isEqualTo(3);
        awaitRun("cron_down", "20260930");
        assertThat(partitions("cron_down")).containsExactly("20260928", "20260929", "20260930");

        // two days down: a replica started afterwards replays from the watermark, then has nothing left to do
        clock.set("2026-10-03T05:00:00Z");
        CronPump restarted = newPump();
        assertThat(restarted.tick().fired("cron_down")).isEqualTo(2);
        assertThat(restarted.tick().fired("cron_down")).isZero();
        assertThat(newPump().tick().fired("cron_down")).isZero();
        awaitRun("cron_down", "20261002");
        assertThat(partitions("cron_down"))
                .containsExactly("20260928", "20260929", "20260930", "20261001", "20261002");
    }

    @Test
    void withoutCatchupMissedFiringsAreDropped() {
        clock.set("2026-10-10T01:00:00Z");
        publish(dailyGraph("cron_nocatch", Optional.of("0 2 * * *"), Optional.empty()));
        clock.set("2026-10-10T03:00:00Z");
        assertThat(pump.tick().fired("cron_nocatch")).isEqualTo(1);
        awaitRun("cron_nocatch", "20261009");

        clock.set("2026-10-13T05:00:00Z");
        CronPump restarted = newPump();
        assertThat(restarted.tick().fired("cron_nocatch")).isZero();
        clock.set("2026-10-14T02:00:01Z");
        assertThat(restarted.tick().fired("cron_nocatch")).isEqualTo(1);
        awaitRun("cron_nocatch", "20261013");
        assertThat(partitions("cron_nocatch")).containsExactly("20261009", "20261013");
    }

    @Test
    void twoPumpsSideBySideStartEachFiringOnce() throws Exception {
        clock.set("2026-11-01T00:30:00Z");
        String hash = publish(graph("cron_pair", "hourly", Optional.of("0 * * * *"), Optional.of("2h"), ""));
        CronPump other = newPump();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        int fired = 0;
        try {
            for (int hour = 0; hour < 6; hour++) {
                var a = CompletableFuture.supplyAsync(() -> pump.tick().fired("cron_pair"), threads);
                var b = CompletableFuture.supplyAsync(() -> other.tick().fired("cron_pair"), threads);
                fired += a.get() + b.get();
                clock.advance(Duration.ofHours(1));
            }
        } finally {
            threads.shutdownNow();
        }
        // the window gives 23:00 and 00:00 (partitions of 22:00 and 23:00), then one firing per hour
        List<String> expected = List.of("20261031T22", "20261031T23", "20261101T00", "20261101T01", "20261101T02",
                "20261101T03", "20261101T04");
        awaitRun("cron_pair", "20261101T04");
        assertThat(partitions("cron_pair")).containsExactlyElementsOf(expected);
        expected.forEach(p -> assertThat(run("cron_pair", p).orElseThrow().definition()).isEqualTo(hash));
        assertThat(fired).isBetween(expected.size(), 2 * expected.size());
    }

    @Test
    void anUnrepresentableWindowLeavesOnlyThatGraphUnscheduled() {
        clock.set("2026-11-10T01:59:00Z");
        publish(dailyGraph("cron_huge", Optional.of("0 2 * * *"), Optional.of("99999999999d")));
        publish(dailyGraph("cron_fine", Optional.of("0 2 * * *"), Optional.empty()));
        clock.set("2026-11-10T02:00:00Z");
        pump.tick();
        awaitRun("cron_fine", "20261109");
        clock.set("2026-11-11T02:00:00Z");
        pump.tick();
        awaitRun("cron_fine", "20261110");
        assertThat(partitions("cron_huge")).isEmpty();
        assertThat(watermarks.watermarks()).doesNotContainKey("cron_huge");
    }

    @Test
    void aFiringNotSentLeavesTheWatermarkSoTheNextTickSendsIt() {
        clock.set("2026-11-20T01:00:00Z");
        publish(dailyGraph("cron_unsent", Optional.of("0 2 * * *"), Optional.empty()));
        List<String> refused = new ArrayList<>();
        CronPump unreachable = new CronPump(definitions, catalog, watermarks, (graph, firing) -> {
            refused.add(graph);
            throw new IllegalStateException("the firing of graph `" + graph + "` was not sent: broker unreachable");
        }, clock);
        clock.set("2026-11-20T02:00:00.500Z");

        assertThat(unreachable.tick().fired("cron_unsent")).isZero();
        assertThat(refused).contains("cron_unsent");
        assertThat(watermarks.watermarks()).doesNotContainKey("cron_unsent");
        // the next tick fires the same occurrence again, and only now the watermark moves
        assertThat(pump.tick().fired("cron_unsent")).isEqualTo(1);
        assertThat(watermarks.watermarks()).containsEntry("cron_unsent", Instant.parse("2026-11-20T02:00:00Z").toEpochMilli());
        awaitRun("cron_unsent", "20261119");
    }

    /** Was: the watermark script failed on the bad value at every tick, before the schedules sorted after it. */
    @Test
    void aMalformedWatermarkIsReplacedByTheNextFiringAndStallsNoOtherSchedule() {
        clock.set("2026-11-21T01:00:00Z");
        publish(dailyGraph("cron_a_badmark", Optional.of("0 2 * * *"), Optional.empty()));
        publish(dailyGraph("cron_b_after", Optional.of("0 2 * * *"), Optional.empty()));
        redis.hset(new io.swale.store.redis.RedisKeys(props.redis().keyPrefix()).watermarks(), "cron_a_badmark", "x");
        clock.set("2026-11-21T02:00:00.500Z");

        CronPump.Tick tick = pump.tick();

        assertThat(tick.fired("cron_a_badmark")).isEqualTo(1);
        assertThat(tick.fired("cron_b_after")).isEqualTo(1);
        long fired = Instant.parse("2026-11-21T02:00:00Z").toEpochMilli();
        assertThat(watermarks.watermarks()).containsEntry("cron_a_badmark", fired).containsEntry("cron_b_after", fired);
        assertThat(pump.tick().fired("cron_a_badmark")).isZero();
        awaitRun("cron_a_badmark", "20261120");
        awaitRun("cron_b_after", "20261120");
    }

    @Test
    void aFiringHandledTwiceStartsOneRun() {
        clock.set("2026-11-22T01:00:00Z");
        publish(dailyGraph("cron_twice", Optional.of("0 2 * * *"), Optional.empty()));
        var firing = new Trigger.CronFiring("cron_twice", Optional.of(Instant.parse("2026-11-22T02:00:00Z").toEpochMilli()),
                Optional.of(Instant.parse("2026-11-21T02:00:00Z").toEpochMilli()));

        assertThat(triggers.handle(firing)).containsExactly(Partition.of("20261121"));
        long requestedAt = run("cron_twice", "20261121").orElseThrow().requestedAtMs();
        // a replay (a second pump, a redelivered record) finds the run and starts nothing
        assertThat(triggers.handle(firing)).isEmpty();
        assertThat(partitions("cron_twice")).containsExactly("20261121");
        assertThat(run("cron_twice", "20261121").orElseThrow().requestedAtMs()).isEqualTo(requestedAt);
    }
}
