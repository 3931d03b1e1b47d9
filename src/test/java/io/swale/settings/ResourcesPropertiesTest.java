package io.swale.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** swale.resources.* fails the start with a message naming the property and the bad value. */
class ResourcesPropertiesTest {
    private static ResourcesProperties of(Map<String, Integer> capacities) {
        return new ResourcesProperties(capacities, false, Duration.ofSeconds(1), Duration.ofSeconds(5));
    }

    @Test
    void capacitiesAreKeptByName() {
        assertThat(of(Map.of("warehouse", 2, "agent:a7", 1)).capacities()).containsExactly(
                Map.entry("agent:a7", 1), Map.entry("warehouse", 2));
        assertThat(of(null).capacities()).isEmpty();
    }

    /** What docs/resources.md says of names with other characters than letters, digits, - and . */
    @Test
    void aNameWithOtherCharactersKeepsThemOnlyInBrackets() {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                "swale.resources.capacities[db/main]", "4",
                "swale.resources.capacities[agent:a7]", "2",
                "swale.resources.capacities.db/replica", "3")));
        assertThat(Binder.get(env).bindOrCreate("swale.resources", ResourcesProperties.class).capacities())
                .containsExactly(Map.entry("agent:a7", 2), Map.entry("db/main", 4), Map.entry("dbreplica", 3));
    }

    @Test
    void aBadCapacityOrNameNamesTheProperty() {
        assertThatThrownBy(() -> of(Map.of("warehouse", 0))).hasMessageContaining("swale.resources.capacities.warehouse")
                .hasMessageContaining("from 1 to 1000000, got 0");
        assertThatThrownBy(() -> of(Map.of("warehouse", -2))).hasMessageContaining("got -2");
        assertThatThrownBy(() -> of(Map.of("-bad", 2))).hasMessageContaining("swale.resources.capacities.-bad")
                .hasMessageContaining("a resource name is");
        assertThatThrownBy(() -> new ResourcesProperties(Map.of(), false, Duration.ZERO, Duration.ofSeconds(5)))
                .hasMessageContaining("swale.resources.reap-interval");
    }
}
