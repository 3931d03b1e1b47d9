package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @Test
    void eachUnit() {
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Durations.parse("6h")).isEqualTo(Duration.ofHours(6));
        assertThat(Durations.parse("7d")).isEqualTo(Duration.ofDays(7));
    }

    @Test
    void zeroAndLeadingZeros() {
        assertThat(Durations.parse("0s")).isEqualTo(Duration.ZERO);
        assertThat(Durations.parse("007m")).isEqualTo(Duration.ofMinutes(7));
    }

    @Test
    void largestSecondsJavaHolds() {
        assertThat(Durations.parse(Long.MAX_VALUE + "s")).isEqualTo(Duration.ofSeconds(Long.MAX_VALUE));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "s", "7", "7dd", "7w", "7D", "-7d", "+7d", "1.5h", "7 d", " 7d", "7d ", "7sm", "d7", "٣s", "1e3s"
    })
    void invalidTextIsNamedWithTheAcceptedForm(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
                .isInstanceOf(InvalidDurationException.class)
                .hasMessageContaining("`" + text + "`")
                .hasMessageContaining("`30s`, `5m`, `6h`, `7d`")
                .satisfies(e -> assertThat(((InvalidDurationException) e).text()).isEqualTo(text));
    }

    @Test
    void overflowOfUnsigned64BitSecondsIsInvalid() {
        assertThatThrownBy(() -> Durations.parse("18446744073709551616s"))
                .isInstanceOf(InvalidDurationException.class)
                .hasMessageContaining("overflows");
        assertThatThrownBy(() -> Durations.parse("213503982334602d"))
                .isInstanceOf(InvalidDurationException.class)
                .hasMessageContaining("overflows");
        assertThatThrownBy(() -> Durations.parse("99999999999999999999999999999d"))
                .isInstanceOf(InvalidDurationException.class);
    }

    @Test
    void secondsBeyondJavaDurationButWithinU64AreValidAndSaturate() {
        // valid u64 seconds (spec §1.5) that java.time.Duration cannot hold
        assertThat(Durations.parse("18446744073709551615s")).isEqualTo(Duration.ofSeconds(Long.MAX_VALUE));
        assertThat(Durations.parse("9223372036854775808s")).isEqualTo(Duration.ofSeconds(Long.MAX_VALUE));
        assertThatThrownBy(() -> Durations.parse("18446744073709551616s"))
                .isInstanceOf(InvalidDurationException.class)
                .hasMessageContaining("`18446744073709551616s`")
                .hasMessageContaining("`7d`");
    }
}
