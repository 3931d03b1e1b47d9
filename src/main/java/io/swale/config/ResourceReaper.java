package io.swale.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.swale.lifecycle.FixedDelayLoop;
import io.swale.settings.ResourcesProperties;
import io.swale.settings.SwaleProperties;
import io.swale.store.ResourceStore;
import io.swale.worker.ResourceGate;
import io.swale.worker.StaleWaiters;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On every scheduler or pool replica: writes the configured capacities at start-up, then frees expired lease
 * grants and wakes the waiters they let in each {@code swale.resources.reap-interval} (every step is one
 * script, so replicas doing it at once only wake twice); every fifth pass drops stale waiters and keeps the
 * held/waiting gauges.
 */
public final class ResourceReaper extends FixedDelayLoop {
    private static final Logger log = LoggerFactory.getLogger(ResourceReaper.class);
    static final int REAP_LIMIT = 200;

    private final ResourceStore store;
    private final ResourceGate gate;
    private final SwaleProperties props;
    private final ResourcesProperties resources;
    private final StaleWaiters staleWaiters;
    private final Optional<ResourceGauges> gauges;
    private long passes;

    ResourceReaper(ResourceStore store, ResourceGate gate, SwaleProperties props, ResourcesProperties resources,
            MeterRegistry registry, StaleWaiters staleWaiters) {
        super("swale-resources", resources.reapInterval(), resources.reapInterval());
        this.store = store;
        this.gate = gate;
        this.props = props;
        this.resources = resources;
        this.staleWaiters = staleWaiters;
        this.gauges = Optional.ofNullable(registry).map(ResourceGauges::new);
    }

    @Override
    protected boolean prepare() {
        if (!props.hasRole("scheduler") && !props.hasRole("pool")) {
            return false;
        }
        resources.capacities().forEach((name, capacity) -> gate.wake(store.setCapacity(name, capacity)));
        return true;
    }

    @Override
    protected void tick() {
        try {
            ResourceStore.Reaped r = store.reap(REAP_LIMIT);
            if (r.freed() > 0) {
                log.info("expired lease grants freed count={} woken={}", r.freed(), r.wake().size());
            }
            gate.wake(r.wake());
            if (passes++ % 5 == 0) {
                // a waiter whose instance is no longer pending would keep its place in line for good
                ResourceStore.Reaped stale = staleWaiters.sweep();
                if (stale.freed() > 0) {
                    log.info("stale lease waiters dropped count={} woken={}", stale.freed(), stale.wake().size());
                }
                gate.wake(stale.wake());
                gauges.ifPresent(g -> g.update(store.resources()));
            }
        } catch (RuntimeException e) {
            log.warn("resource reap pass failed error={}", e.toString());
        }
    }
}
