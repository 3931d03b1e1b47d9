package io.swale.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class OperatorDurationsTest {
    @ParameterizedTest
    @CsvSource({"0s,0", "30s,30", "5m,300", "6h,21600", "7d,604800", "007s,7", "1m,60"})
    void parsesDigitsAndOneUnit(String text, long seconds) {
        assertThat(OperatorDurations.parseSeconds(text)).isEqualTo(seconds);
        assertThat(OperatorDurations.parse(text)).isEqualTo(Duration.ofSeconds(seconds));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "s", "7", "7dd", "7w", "-7d", "1.5h", "7 d", " 7d", "7d ", "7D", "+7s", "٣s",
            "18446744073709551616s", "307445734561825861m"})
    void rejectsEverythingElseNamingTheTextAndTheForm(String text) {
        assertThatThrownBy(() -> OperatorDurations.parseSeconds(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("`" + text + "`")
                .hasMessageContaining("`30s`, `5m`, `6h` or `7d`");
        assertThat(OperatorDurations.isValid(text)).isFalse();
    }

    @Test
    void secondsUpToTheUnsignedLimitAreValidAndSaturate() {
        assertThat(OperatorDurations.parseSeconds("18446744073709551615s")).isEqualTo(Long.MAX_VALUE);
        assertThat(OperatorDurations.parseSeconds("9223372036854775807s")).isEqualTo(Long.MAX_VALUE);
        assertThat(OperatorDurations.parseSeconds("9223372036854775806s")).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(OperatorDurations.toMillisSaturated(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(OperatorDurations.toMillisSaturated(60)).isEqualTo(60_000L);
    }
}
