package io.swale.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ConfiguredPoolsTest {

    @Test
    void aPoolCreatedOnDemandIsToldOnceAndOnlyAValidNameIsCreated() {
        ConfiguredPools pools = new ConfiguredPools(Map.of("etl", 2), 4, true);
        List<String> told = new ArrayList<>();
        pools.onCreated((name, slots) -> told.add(name + "=" + slots));

        pools.ensure(Set.of("etl", "gpu", "Not-A-Pool"));
        pools.ensure(Set.of("gpu"));

        assertThat(told).containsExactly("gpu=4");
        assertThat(pools.pools()).containsOnlyKeys("default", "etl", "gpu");
        assertThat(pools.isConfigured("Not-A-Pool")).isFalse();
    }

    /** Was: kept although no worker was started for it, so it passed as served for good. */
    @Test
    void aPoolWhoseWorkerCouldNotStartIsNotKeptAndIsCreatedAgainNextTime() {
        ConfiguredPools pools = new ConfiguredPools(Map.of(), 4, true);
        AtomicBoolean kafkaUp = new AtomicBoolean();
        List<String> served = new ArrayList<>();
        pools.onCreated((name, slots) -> {
            if (!kafkaUp.get()) {
                throw new IllegalStateException("Kafka unreachable: topics of pool " + name + " not made");
            }
            served.add(name);
        });

        assertThatThrownBy(() -> pools.ensure(Set.of("gpu"))).hasMessageContaining("not made");
        assertThat(pools.isConfigured("gpu")).isFalse();

        kafkaUp.set(true);
        pools.ensure(Set.of("gpu"));
        assertThat(pools.isConfigured("gpu")).isTrue();
        assertThat(served).containsExactly("gpu");
    }

    @Test
    void withoutCreationOnDemandNothingIsCreated() {
        ConfiguredPools pools = new ConfiguredPools(Map.of(), 4, false);
        pools.onCreated((name, slots) -> {
            throw new AssertionError("told of " + name);
        });
        pools.ensure(Set.of("gpu"));
        assertThat(pools.isConfigured("gpu")).isFalse();
    }
}
