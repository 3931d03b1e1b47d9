package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.LongStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The retry delay doubles from the first one up to the cap, and jitter only ever adds, never past the cap. */
class BackoffTest {
    @Test
    void withoutJitterTheDelayDoublesUpToTheCap() {
        Backoff b = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(20), 0);
        assertThat(LongStream.rangeClosed(1, 8).map(b::delayMs).toArray())
                .containsExactly(1_000, 2_000, 4_000, 8_000, 16_000, 20_000, 20_000, 20_000);
        assertThat(b.delayMs(0)).as("no failure yet counts as the first").isEqualTo(1_000);
    }

    @Test
    void theDefaultReachesItsFiveMinuteCapAndStaysThere() {
        Backoff b = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(5), 0);
        assertThat(b.delayMs(9)).isEqualTo(256_000);
        assertThat(b.delayMs(10)).isEqualTo(300_000);
        assertThat(b.delayMs(1_000)).as("no overflow far past the cap").isEqualTo(300_000);
        assertThat(b.delayMs(Long.MAX_VALUE)).isEqualTo(300_000);
    }

    @Property
    void jitterAddsAtMostItsShareAndNeverPassesTheCap(@ForAll @LongRange(min = 1, max = 64) long failure) {
        Backoff b = Backoff.DEFAULT;
        long exact = Math.min(300_000, 1_000L << Math.min(failure - 1, 20));
        long d = b.delayMs(failure);
        assertThat(d).isGreaterThanOrEqualTo(exact).isLessThanOrEqualTo(Math.min(300_000, (long) (exact * 1.2)));
    }

    @Test
    void nonsenseIsRefused() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
