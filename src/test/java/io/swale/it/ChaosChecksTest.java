package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chaos test's checks on hand-written attempt lines: each finds what it must and nothing else. */
class ChaosChecksTest {
    @TempDir
    Path dir;

    @Test
    void overlappingAttemptsOfOneInstanceAreFoundAndSequentialOnesAreNot() throws Exception {
        AttemptLog log = log("""
                start g-p-a-r0 1 w1-i1 100 1000
                start g-p-a-r0 2 w2-i1 200 1500
                end g-p-a-r0 1 w1-i1 100 2000
                end g-p-a-r0 2 w2-i1 200 2600
                start g-p-b-r0 1 w1-i1 300 3000
                end g-p-b-r0 1 w1-i1 300 3500
                start g-p-b-r0 1 w3-i1 301 3600
                end g-p-b-r0 1 w3-i1 301 4000
                """);
        List<AttemptLog.Overlap> overlaps = log.overlaps(List.of(), 3000);
        assertThat(overlaps).singleElement().satisfies(o -> {
            assertThat(o.first().runId()).isEqualTo("g-p-a-r0");
            assertThat(o.second().member()).isEqualTo("w2-i1");
        });
    }

    @Test
    void anUnfinishedAttemptRunsUntilItsWorkerIsKilledOrAtMostItsSleep() throws Exception {
        AttemptLog log = log("""
                start g-p-a-r0 1 w1-i1 100 1000
                start g-p-a-r0 2 w2-i1 200 5000
                end g-p-a-r0 2 w2-i1 200 5500
                start g-p-c-r0 1 w3-i1 400 1000
                start g-p-c-r0 2 w2-i1 401 2000
                end g-p-c-r0 2 w2-i1 401 2400
                """);
        // w1-i1 was killed at 6000, after attempt 2 started: the two ran at once; c's first attempt had no end
        // and no kill, so it stopped within its sleep (3 s), after its retry began
        assertThat(log.overlaps(List.of(new ChaosProcess.Killed("w1-i1", 6000, 6040)), 3000))
                .extracting(o -> o.first().runId()).containsExactly("g-p-a-r0", "g-p-c-r0");
        assertThat(log.overlaps(List.of(new ChaosProcess.Killed("w1-i1", 4000, 4040)), 500)).isEmpty();
    }

    @Test
    void reExecutionsAreNamedByCauseAndAFinishedAttemptRunAgainIsADefect() throws Exception {
        AttemptLog log = log("""
                start g-p-a-r0 1 w1-i1 100 1000
                end g-p-a-r0 1 w1-i1 100 1500
                start g-p-a-r0 2 w2-i1 200 70000
                start g-p-b-r0 1 w1-i1 101 1000
                start g-p-b-r0 2 w2-i1 201 70000
                start g-p-c-r0 1 w3-i1 102 1000
                end g-p-c-r0 1 w3-i1 102 1200
                start g-p-c-r0 2 w3-i1 202 70000
                start g-p-d-r0 1 w2-i1 103 1000
                start g-p-d-r0 1 w3-i1 203 9000
                start g-p-e-r0 1 w1-i1 104 1000
                end g-p-e-r0 1 w1-i1 104 2010
                start g-p-e-r0 2 w2-i1 204 70000
                """);
        // e's shell wrote its end after the kill was sent (2000) and before its worker was gone (2040)
        List<AttemptLog.ReExecution> causes = log.causes(List.of(new ChaosProcess.Killed("w1-i1", 2000, 2040)),
                Map.of("w2-i1", 1100L), 60_000);
        assertThat(causes).extracting(r -> r.before().runId() + ": " + r.cause()).containsExactly(
                "g-p-a-r0: worker kill -9 after the task's end, before its settle",
                "g-p-b-r0: worker kill -9 (attempt killed with it)",
                "g-p-c-r0: " + AttemptLog.FINISHED_RERUN,
                "g-p-d-r0: worker SIGTERM (attempt stopped)",
                "g-p-e-r0: worker kill -9 after the task's end, before its settle");
    }

    @Test
    void thePauseAfterAFaultIsTheLongestTimeWithoutATerminationUntilTheNextFault() {
        ChaosReport report = new ChaosReport();
        report.faults.add(new ChaosReport.Fault("first", 10_000, 12_000, 10_000, 5, true));
        report.faults.add(new ChaosReport.Fault("second", 50_000, 60_000, 60_000, 5, true));
        report.terminations = List.of(9_000L, 11_000L, 31_000L, 32_000L, 55_000L, 61_000L, 62_000L);
        assertThat(report.pauses()).extracting(ChaosReport.Pause::firstTerminationMs, ChaosReport.Pause::longestMs)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1_000L, 20_000L),
                        org.assertj.core.groups.Tuple.tuple(1_000L, 1_000L));
        assertThat(report.pauses().getFirst()).extracting(ChaosReport.Pause::gapFromMs, ChaosReport.Pause::gapToMs)
                .containsExactly(11_000L, 31_000L);
    }

    @Test
    void theLogLinesAroundAPauseAreTheTellingOnesOfItsWindowInTimeOrder() throws Exception {
        long from = java.time.Instant.parse("2026-12-05T22:07:10.000Z").toEpochMilli();
        Files.writeString(dir.resolve("w2-i1.log"), """
                2026-12-05T22:06:00.000Z  WARN 1 --- [w2] [main] x : long before the pause
                2026-12-05T22:07:09.000Z  INFO 1 --- [w2] [C-1] k.c.c.i.ConsumerRebalanceListenerInvoker : Revoke previously assigned partitions [p-0]
                2026-12-05T22:07:11.000Z  INFO 1 --- [w2] [main] x : an ordinary line
                2026-12-05T23:07:11.500+01:00  WARN 1 --- [w2] [main] x : lease given back runId=r0
                2026-12-05T22:07:12.000Z  WARN 1 --- [w2] [main] x : hand-over incomplete runId=r1
                """);
        Files.writeString(dir.resolve("kafka-i2.log"), """
                2026-12-05T22:07:10.500Z INFO  o.a.k.c.group.GroupMetadataManager - Preparing to rebalance group swale-pool-default
                2026-12-05T22:08:30.000Z INFO  o.a.k.c.group.GroupMetadataManager - Stabilized group swale-pool-default generation 5
                """);
        assertThat(ChaosLogs.around(dir, from, from + 20_000)).containsExactly(
                "w2-i1: 2026-12-05T22:07:09.000Z  INFO 1 --- [w2] [C-1] k.c.c.i.ConsumerRebalanceListenerInvoker : Revoke previously assigned partitions [p-0]",
                "kafka-i2: 2026-12-05T22:07:10.500Z INFO  o.a.k.c.group.GroupMetadataManager - Preparing to rebalance group swale-pool-default",
                "w2-i1: 2026-12-05T23:07:11.500+01:00  WARN 1 --- [w2] [main] x : lease given back runId=r0",
                "w2-i1: 2026-12-05T22:07:12.000Z  WARN 1 --- [w2] [main] x : hand-over incomplete runId=r1");
    }

    private AttemptLog log(String lines) throws Exception {
        Path file = dir.resolve("attempts.log");
        Files.writeString(file, lines);
        return AttemptLog.read(file);
    }
}
