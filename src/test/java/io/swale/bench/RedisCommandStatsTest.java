package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedisCommandStatsTest {

    private static final String BEFORE = """
            # Commandstats\r
            cmdstat_hget:calls=10,usec=20,usec_per_call=2.00,rejected_calls=0,failed_calls=0\r
            cmdstat_get:calls=5,usec=5,usec_per_call=1.00,rejected_calls=0,failed_calls=0\r
            cmdstat_info:calls=3,usec=90,usec_per_call=30.00,rejected_calls=0,failed_calls=0\r
            """;

    private static final String AFTER = """
            # Commandstats\r
            cmdstat_hget:calls=40,usec=80,usec_per_call=2.00,rejected_calls=0,failed_calls=0\r
            cmdstat_get:calls=5,usec=5,usec_per_call=1.00,rejected_calls=0,failed_calls=0\r
            cmdstat_evalsha:calls=7,usec=700,usec_per_call=100.00,rejected_calls=0,failed_calls=0\r
            cmdstat_info:calls=9,usec=270,usec_per_call=30.00,rejected_calls=0,failed_calls=0\r
            """;

    @Test
    void theDifferenceHoldsWhatRanMostCalledFirstWithoutTheBenchsOwnInfo() {
        RedisCommandStats delta = RedisCommandStats.parse(AFTER).minus(RedisCommandStats.parse(BEFORE));

        assertThat(delta.byCommand()).containsExactly(
                java.util.Map.entry("hget", new RedisCommandStats.Count(30, 60)),
                java.util.Map.entry("evalsha", new RedisCommandStats.Count(7, 700)));
    }

    @Test
    void callsSentByTheBenchItselfAreTakenOffTheirCommand() {
        RedisCommandStats delta = RedisCommandStats.parse(AFTER).minus(RedisCommandStats.parse(BEFORE))
                .lessCalls("hget", 12).lessCalls("absent", 3);

        assertThat(delta.byCommand().get("hget")).isEqualTo(new RedisCommandStats.Count(18, 60));
        assertThat(delta.byCommand()).doesNotContainKey("absent");
    }

    @Test
    void theTableLineGivesTheMostCalledCommandsPerTaskInstance() {
        RedisCommandStats delta = RedisCommandStats.parse(AFTER).minus(RedisCommandStats.parse(BEFORE));

        assertThat(delta.perTask(10, 1)).isEqualTo(String.format("hget %.2f (%.0f µs)", 3.0, 6.0));
        assertThat(delta.perTask(10, 10)).isEqualTo(String.format("hget %.2f (%.0f µs), evalsha %.2f (%.0f µs)", 3.0, 6.0,
                0.7, 70.0));
    }
}
