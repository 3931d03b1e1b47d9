package io.swale.cron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Partition;
import io.swale.graph.Partitioning;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The dialect of spec §4.1 and the partition of a firing (§4.2), as golden values. */
class CronScheduleTest {

    /** expression | partitioning | firing | previous occurrence | partition started. */
    @ParameterizedTest(name = "{0} fired at {2}")
    @CsvSource(delimiter = '|', textBlock = """
            0 2 * * *        | DAILY  | 2026-09-16T02:00:00Z | 2026-09-15T02:00:00Z | 20260915
            0 2 * * *        | DAILY  | 2026-09-13T02:00:00Z | 2026-09-12T02:00:00Z | 20260912
            0 */12 * * *     | DAILY  | 2026-09-16T12:00:00Z | 2026-09-16T00:00:00Z | 20260916
            0 */12 * * *     | DAILY  | 2026-09-17T00:00:00Z | 2026-09-16T12:00:00Z | 20260916
            0 * * * *        | HOURLY | 2026-09-16T03:00:00Z | 2026-09-16T02:00:00Z | 20260916T02
            15 */6 * * *     | HOURLY | 2026-09-16T00:15:00Z | 2026-09-15T18:15:00Z | 20260915T18
            0 9 * * mon-fri  | DAILY  | 2026-09-21T09:00:00Z | 2026-09-18T09:00:00Z | 20260918
            30 1 1 * *       | DAILY  | 2026-10-01T01:30:00Z | 2026-09-01T01:30:00Z | 20260901
            0 0 1 jan *      | DAILY  | 2027-01-01T00:00:00Z | 2026-01-01T00:00:00Z | 20260101
            0 0 13 * +fri    | DAILY  | 2026-11-13T00:00:00Z | 2026-03-13T00:00:00Z | 20260313
            0 0 13 * fri     | DAILY  | 2026-11-13T00:00:00Z | 2026-11-06T00:00:00Z | 20261106
            0 0 29 2 *       | DAILY  | 2028-02-29T00:00:00Z | 2024-02-29T00:00:00Z | 20240229
            0 0 29 2 +1      | DAILY  | 2044-02-29T00:00:00Z | 2016-02-29T00:00:00Z | 20160229
            59 23 31 12 *    | HOURLY | 2026-12-31T23:59:00Z | 2025-12-31T23:59:00Z | 20251231T23
            """)
    void previousOccurrenceGivesThePartition(String expression, Partitioning partitioning, String fire, String previous,
            String partition) {
        CronSchedule cron = CronSchedule.parse(expression);
        Instant firing = Instant.parse(fire);
        assertThat(cron.matches(firing)).isTrue();
        Firing f = cron.firing(firing);
        assertThat(f.fireMs()).isEqualTo(firing.toEpochMilli());
        assertThat(f.previousFireMs()).contains(Instant.parse(previous).toEpochMilli());
        assertThat(f.partition(partitioning)).contains(Partition.of(partition));
        assertThat(cron.next(Instant.parse(previous))).contains(firing);
    }

    @Test
    void theSpecExampleReplaysThreeOccurrencesBeforeTheLiveOne() {
        CronSchedule cron = CronSchedule.parse("0 2 * * *");
        Instant start = Instant.parse("2026-09-16T01:59:59.950Z");
        Instant windowStart = start.minusSeconds(3 * 86_400);
        Instant t = cron.next(windowStart).orElseThrow();
        StringBuilder partitions = new StringBuilder();
        while (!t.isAfter(start)) {
            partitions.append(cron.firing(t).partition(Partitioning.DAILY).orElseThrow()).append(' ');
            t = cron.next(t).orElseThrow();
        }
        assertThat(partitions.toString().strip()).isEqualTo("20260912 20260913 20260914");
        assertThat(t).isEqualTo(Instant.parse("2026-09-16T02:00:00Z"));
        assertThat(cron.firing(t).partition(Partitioning.DAILY)).contains(Partition.of("20260915"));
    }

    @Test
    void nextIsStrictlyAfterAndPreviousStrictlyBefore() {
        CronSchedule cron = CronSchedule.parse("0 2 * * *");
        Instant occurrence = Instant.parse("2026-09-16T02:00:00Z");
        assertThat(cron.next(occurrence)).contains(Instant.parse("2026-09-17T02:00:00Z"));
        assertThat(cron.previous(occurrence)).contains(Instant.parse("2026-09-15T02:00:00Z"));
        assertThat(cron.next(occurrence.minusMillis(50))).contains(occurrence);
        assertThat(cron.previous(occurrence.plusMillis(1))).contains(occurrence);
        assertThat(cron.previous(occurrence.plusSeconds(59))).contains(occurrence);
        assertThat(cron.next(occurrence.plusSeconds(59))).contains(Instant.parse("2026-09-17T02:00:00Z"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            0 9 * * mon-fri         | 0 9 * * 1-5
            0 0 * JAN,jun *         | 0 0 * 1,6 *
            '0  0\t1 * +Fri'        | 0 0 1 * +5
            */15 * * * *            | */15 * * * *
            05 1-23/2 * * *         | 5 1-23/2 * * *
            0 0 * * sun,7           | 0 0 * * 0,7
            0 9 * * sat-sun         | 0 9 * * 6-7
            0 9 * * mon-sun/2       | 0 9 * * 1-7/2
            0 0 1-31/10 feb-apr/1 * | 0 0 1-31/10 2-4/1 *
            """)
    void namesAreShownAsNumbers(String expression, String normalized) {
        assertThat(CronSchedule.parse(expression).normalized()).isEqualTo(normalized);
    }

    @ParameterizedTest
    @ValueSource(strings = {"5/5 * * * *", "* * * * * *", "0 0 1 1 * 2027", "* * * *", "", "   ", "60 * * * *",
            "* 24 * * *", "* * 0 * *", "* * 32 * *", "* * * 13 *", "* * * * 8", "*/0 * * * *", "5-1 * * * *",
            "0 0 ? * *", "0 0 L * *", "@daily", "0 0 * * 1#2", "* * * * mon+", "+1 * * * *", "1,,2 * * * *",
            "* * * foo *", "mon * * * *", "0 0 * * fri-mon", "1- * * * *", "*/ * * * *", "0 0 * * ++1",
            "0 0 1W * *", "-1 * * * *", "99999999999 * * * *"})
    void invalidExpressionsAreRejected(String expression) {
        assertThatThrownBy(() -> CronSchedule.parse(expression)).isInstanceOf(InvalidCronException.class);
        assertThat(new DialectCronCheck().problem(expression)).isPresent();
    }

    @Test
    void theProblemNamesTheField() {
        assertThat(new DialectCronCheck().problem("5/5 * * * *")).hasValueSatisfying(m ->
                assertThat(m).contains("minute", "`5/5`", "step"));
        assertThat(new DialectCronCheck().problem("0 2 * * * *")).hasValueSatisfying(m ->
                assertThat(m).contains("5 fields", "6", "seconds or year"));
        assertThat(new DialectCronCheck().problem("0 0 * 13 *")).hasValueSatisfying(m ->
                assertThat(m).contains("month", "13"));
        assertThat(new DialectCronCheck().problem("0 0 * * mon-fri")).isEmpty();
        assertThat(new DialectCronCheck().problem("0 0 * * 6-0")).hasValueSatisfying(m ->
                assertThat(m).contains("`6-0`", "runs backwards"));
        assertThat(new DialectCronCheck().problem("0 0 * * sat-sun")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0 0 30 2 *", "0 0 31 4,6,9,11 *", "0 0 31 4 +mon", "0 0 30,31 feb *"})
    void unsatisfiableExpressionsAreValidAndNeverFire(String expression) {
        CronSchedule cron = CronSchedule.parse(expression);
        assertThat(cron.satisfiable()).isFalse();
        long t0 = System.nanoTime();
        assertThat(cron.next(Instant.parse("2026-09-16T00:00:00Z"))).isEmpty();
        assertThat(cron.previous(Instant.parse("2026-09-16T00:00:00Z"))).isEmpty();
        assertThat((System.nanoTime() - t0) / 1_000_000).as("ms to answer").isLessThan(50);
    }

    @Test
    void restrictedDaysMatchEitherUnlessPlusAsksForBoth() {
        Instant wednesday = Instant.parse("2026-09-16T00:00:00Z");
        assertThat(CronSchedule.parse("0 0 1 * mon").next(wednesday)).contains(Instant.parse("2026-09-21T00:00:00Z"));
        assertThat(CronSchedule.parse("0 0 1 * +mon").next(wednesday)).contains(Instant.parse("2027-02-01T00:00:00Z"));
        // a day field that matches every value is not restricted: the other one alone decides
        assertThat(CronSchedule.parse("0 0 1-31 * mon").next(wednesday)).contains(Instant.parse("2026-09-21T00:00:00Z"));
        assertThat(CronSchedule.parse("0 0 * * 0-6").next(wednesday)).contains(Instant.parse("2026-09-17T00:00:00Z"));
        assertThat(CronSchedule.parse("0 0 * * 7").next(wednesday)).contains(Instant.parse("2026-09-20T00:00:00Z"));
        // a named Sunday closing a range is 7, as in `6-7`; a numeric 0 there still runs backwards
        assertThat(CronSchedule.parse("0 0 * * sat-sun").next(Instant.parse("2026-09-19T12:00:00Z")))
                .contains(Instant.parse("2026-09-20T00:00:00Z"));
        assertThat(CronSchedule.parse("0 0 * * sat-sun").next(wednesday)).contains(Instant.parse("2026-09-19T00:00:00Z"));
        assertThat(CronSchedule.parse("0 0 1 * +0-6").next(wednesday)).contains(Instant.parse("2026-10-01T00:00:00Z"));
    }

    @Test
    void theFiringOfAnInstantBeyondYear9999HasNoPartition() {
        Firing f = new Firing(253402300800000L, Optional.of(253402300800000L));
        assertThat(f.partition(Partitioning.DAILY)).isEmpty();
        assertThat(new Firing(1, Optional.empty()).partition(Partitioning.DAILY)).isEmpty();
        assertThat(new Firing(1, Optional.of(253402300799999L)).partition(Partitioning.DAILY)).contains(Partition.of("99991231"));
    }
}
