package io.swale.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.util.unit.DataSize;

/** {@code swale.limits.*}: the defaults operations.md lists, and a bad value named at start-up. */
class LimitsSettingsTest {

    @Test
    void theDefaults() {
        LimitsSettings l = PropertiesBindingTest.bind("swale", SwaleProperties.class, Map.of()).limits();
        assertThat(l.bodySize()).isEqualTo(DataSize.ofMegabytes(1));
        assertThat(l.depth()).isEqualTo(32);
        assertThat(l.nodes()).isEqualTo(20_000);
        assertThat(l.stringLength()).isEqualTo(65_536);
        assertThat(l.keyLength()).isEqualTo(256);
        assertThat(l.yamlAliases()).isEqualTo(100);
        assertThat(l.yamlExpansion()).isEqualTo(100_000);
        assertThat(l.startPartitions()).isEqualTo(5_000);
    }

    @Test
    void oneSetLimitKeepsTheOthers() {
        LimitsSettings l = PropertiesBindingTest.bind("swale", SwaleProperties.class,
                Map.of("swale.limits.depth", "64", "swale.limits.body-size", "4MB")).limits();
        assertThat(l.depth()).isEqualTo(64);
        assertThat(l.bodySize()).isEqualTo(DataSize.ofMegabytes(4));
        assertThat(l.startPartitions()).isEqualTo(5_000);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "swale.limits.body-size=10B        | swale.limits.body-size must be between 1KB and 2GB",
            "swale.limits.depth=2              | swale.limits.depth must be at least 4, got 2",
            "swale.limits.depth=600            | swale.limits.depth must be at most 256",
            "swale.limits.nodes=0              | swale.limits.nodes must be at least 1, got 0",
            "swale.limits.yaml-aliases=-1      | swale.limits.yaml-aliases must be at least 0, got -1",
            "swale.limits.start-partitions=0   | swale.limits.start-partitions must be at least 1, got 0",
    })
    void aBadValueIsNamed(String property, String message) {
        String[] kv = property.split("=", 2);
        assertThatThrownBy(() -> PropertiesBindingTest.bind("swale", SwaleProperties.class, Map.of(kv[0], kv[1])))
                .satisfies(t -> {
                    Throwable c = t;
                    while (c.getCause() != null && !(c instanceof IllegalArgumentException)) {
                        c = c.getCause();
                    }
                    assertThat(c).hasMessageContaining(message);
                });
    }
}
