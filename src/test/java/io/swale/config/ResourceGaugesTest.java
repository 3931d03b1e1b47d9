package io.swale.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.swale.store.ResourceStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceGaugesTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ResourceGauges gauges = new ResourceGauges(registry);

    private static ResourceStore.Resource held(String name, int held) {
        return new ResourceStore.Resource(name, 4, false, held, List.of(), List.of());
    }

    private double value(String meter, String resource) {
        return registry.get(meter).tag("resource", resource).gauge().value();
    }

    /** Was: every name ever leased kept its two series on every replica, for good. */
    @Test
    void aResourceNoLongerHeldOrWaitedForLosesItsSeries() {
        gauges.update(Map.of("agent:2026-12-05", held("agent:2026-12-05", 1), "db", held("db", 2)));
        assertThat(value("swale.resources.held", "agent:2026-12-05")).isEqualTo(1);
        assertThat(value("swale.resources.held", "db")).isEqualTo(2);
        assertThat(value("swale.resources.waiting", "db")).isZero();

        gauges.update(Map.of("agent:2026-12-06", held("agent:2026-12-06", 3), "db", held("db", 0)));

        assertThat(registry.find("swale.resources.held").tag("resource", "agent:2026-12-05").gauge()).isNull();
        assertThat(registry.find("swale.resources.waiting").tag("resource", "agent:2026-12-05").gauge()).isNull();
        assertThat(value("swale.resources.held", "agent:2026-12-06")).isEqualTo(3);
        assertThat(value("swale.resources.held", "db")).isZero();
        assertThat(registry.find("swale.resources.held").gauges()).hasSize(2);
    }
}
