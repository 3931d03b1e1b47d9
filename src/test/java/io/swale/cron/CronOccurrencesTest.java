package io.swale.cron;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Occurrences computed through cron-utils agree with the dialect's own matching rule, checked minute by
 * minute over random expressions (lists, ranges, steps, names, OR and AND day rules).
 */
class CronOccurrencesTest {
    private static final Duration WINDOW = Duration.ofDays(45);

    @Test
    void nextAndPreviousAgreeWithTheMatchingRule() {
        Random random = new Random(20260916);
        int checked = 0;
        for (int i = 0; i < 250; i++) {
            String expression = String.join(" ", field(random, 0, 59), field(random, 0, 23), dayField(random, 1, 31),
                    random.nextInt(3) == 0 ? field(random, 1, 12) : "*",
                    (random.nextInt(4) == 0 ? "+" : "") + dayField(random, 0, 6));
            CronSchedule cron = CronSchedule.parse(expression);
            Instant t = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(random.nextInt(3 * 365 * 86_400))
                    .plusMillis(random.nextInt(2) * random.nextInt(60_000));
            assertThat(cron.next(t)).as("next %s after %s", expression, t).satisfies(n -> check(n, scanForward(cron, t)));
            assertThat(cron.previous(t)).as("previous %s before %s", expression, t)
                    .satisfies(p -> check(p, scanBackward(cron, t)));
            checked++;
        }
        assertThat(checked).isEqualTo(250);
    }

    private static void check(Optional<Instant> computed, Optional<Instant> scanned) {
        if (scanned.isPresent()) {
            assertThat(computed).isEqualTo(scanned);
        }
    }

    private static Optional<Instant> scanForward(CronSchedule cron, Instant after) {
        Instant t = after.truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES);
        for (Instant end = after.plus(WINDOW); t.isBefore(end); t = t.plus(1, ChronoUnit.MINUTES)) {
            if (cron.matches(t)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    private static Optional<Instant> scanBackward(CronSchedule cron, Instant before) {
        Instant t = before.truncatedTo(ChronoUnit.MINUTES);
        if (!t.isBefore(before)) {
            t = t.minus(1, ChronoUnit.MINUTES);
        }
        for (Instant end = before.minus(WINDOW); t.isAfter(end); t = t.minus(1, ChronoUnit.MINUTES)) {
            if (cron.matches(t)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    private static String dayField(Random r, int lo, int hi) {
        return r.nextInt(3) == 0 ? "*" : field(r, lo, hi);
    }

    private static String field(Random r, int lo, int hi) {
        int a = lo + r.nextInt(hi - lo + 1);
        int b = lo + r.nextInt(hi - lo + 1);
        int x = Math.min(a, b);
        int y = Math.max(a, b);
        return switch (r.nextInt(6)) {
            case 0 -> "*";
            case 1 -> Integer.toString(a);
            case 2 -> x + "-" + y;
            case 3 -> "*/" + (1 + r.nextInt(Math.max(1, (hi - lo) / 2)));
            case 4 -> a + "," + b;
            default -> x + "-" + y + "/" + (1 + r.nextInt(4));
        };
    }
}
