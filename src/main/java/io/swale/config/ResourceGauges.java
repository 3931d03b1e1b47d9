package io.swale.config;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.swale.store.ResourceStore;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The held and waiting gauges of each resource Redis knows now. A name leases no longer hold or wait for loses its
 * two series: lease names are templates ({@code agent:{{ partition }}}), and a daily graph would otherwise add a
 * pair of series a day on every replica, for good.
 */
final class ResourceGauges {
    private record Pair(AtomicIntegerArray values, Gauge held, Gauge waiting) {}

    private final MeterRegistry registry;
    private final Map<String, Pair> gauges = new HashMap<>();

    ResourceGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Called from one thread: the reaper's. */
    void update(Map<String, ResourceStore.Resource> now) {
        gauges.entrySet().removeIf(e -> {
            boolean gone = !now.containsKey(e.getKey());
            if (gone) {
                registry.remove(e.getValue().held());
                registry.remove(e.getValue().waiting());
            }
            return gone;
        });
        now.forEach((name, r) -> {
            Pair p = gauges.computeIfAbsent(name, this::register);
            p.values().set(0, r.held());
            p.values().set(1, r.waiting().size());
        });
    }

    private Pair register(String name) {
        AtomicIntegerArray v = new AtomicIntegerArray(2);
        Gauge held = Gauge.builder("swale.resources.held", v, a -> a.get(0)).description("Leases held on a resource")
                .tag("resource", name).register(registry);
        Gauge waiting = Gauge.builder("swale.resources.waiting", v, a -> a.get(1))
                .description("Task instances waiting for a lease on a resource").tag("resource", name)
                .register(registry);
        return new Pair(v, held, waiting);
    }
}
