package io.swale.config;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.swale.settings.ResourcesProperties;
import io.swale.settings.SwaleProperties;
import io.swale.store.ResourceStore;
import io.swale.worker.ResourceGate;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * On every scheduler or pool replica: writes the configured capacities at start-up, then frees expired lease
 * grants and wakes the waiters they let in each {@code swale.resources.reap-interval} (every step is one
 * script, so replicas doing it at once only wake twice), and keeps the held/waiting gauges.
 */
public final class ResourceReaper implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(ResourceReaper.class);
    static final int REAP_LIMIT = 200;

    private final ResourceStore store;
    private final ResourceGate gate;
    private final SwaleProperties props;
    private final ResourcesProperties resources;
    private final MeterRegistry registry;
    private final Map<String, java.util.concurrent.atomic.AtomicIntegerArray> gauges = new ConcurrentHashMap<>();
    private volatile ScheduledExecutorService timer;
    private long passes;

    ResourceReaper(ResourceStore store, ResourceGate gate, SwaleProperties props, ResourcesProperties resources,
            MeterRegistry registry) {
        this.store = store;
        this.gate = gate;
        this.props = props;
        this.resources = resources;
        this.registry = registry;
    }

    @Override
    public void start() {
        if (!props.hasRole("scheduler") && !props.hasRole("pool")) {
            return;
        }
        resources.capacities().forEach((name, capacity) -> gate.wake(store.setCapacity(name, capacity)));
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "swale-resources");
            t.setDaemon(true);
            return t;
        });
        long every = resources.reapInterval().toMillis();
        timer.scheduleWithFixedDelay(this::pass, every, every, TimeUnit.MILLISECONDS);
    }

    private void pass() {
        try {
            ResourceStore.Reaped r = store.reap(REAP_LIMIT);
            if (r.freed() > 0) {
                log.info("expired lease grants freed count={} woken={}", r.freed(), r.wake().size());
            }
            gate.wake(r.wake());
            if (registry != null && passes++ % 5 == 0) {
                gauges();
            }
        } catch (RuntimeException e) {
            log.warn("resource reap pass failed error={}", e.toString());
        }
    }

    private void gauges() {
        Map<String, ResourceStore.Resource> now = store.resources();
        Set<String> names = new java.util.HashSet<>(gauges.keySet());
        names.addAll(now.keySet());
        for (String name : names) {
            var values = gauges.computeIfAbsent(name, n -> {
                var v = new java.util.concurrent.atomic.AtomicIntegerArray(2);
                Gauge.builder("swale.resources.held", v, a -> a.get(0)).description("Leases held on a resource")
                        .tag("resource", n).register(registry);
                Gauge.builder("swale.resources.waiting", v, a -> a.get(1)).description("Task instances waiting for a "
                        + "lease on a resource").tag("resource", n).register(registry);
                return v;
            });
            ResourceStore.Resource r = now.get(name);
            values.set(0, r == null ? 0 : r.held());
            values.set(1, r == null ? 0 : r.waiting().size());
        }
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
