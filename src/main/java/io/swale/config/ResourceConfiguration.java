package io.swale.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.swale.kafka.KafkaDispatcher;
import io.swale.run.DefinitionCatalog;
import io.swale.run.RunCancellation;
import io.swale.run.RunGraphs;
import io.swale.settings.ResourcesProperties;
import io.swale.settings.SwaleProperties;
import io.swale.store.ResourceStore;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisResourceStore;
import io.swale.worker.ResourceGate;
import io.swale.worker.StaleWaiters;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.UnifiedJedis;

/**
 * Leases on named resources (docs/resources.md): their store on the one Redis client, the worker's gate and
 * the reap pass.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ResourcesProperties.class)
public class ResourceConfiguration {
    /** The oldest waiters each stale-waiter check looks at (one pipelined read of their runs' instances). */
    static final int STALE_CHECK_LIMIT = 64;

    @Bean
    ResourceStore resourceStore(UnifiedJedis redis, SwaleProperties props, ResourcesProperties resources) {
        return new RedisResourceStore(redis, props.redis().keyPrefix(), resources.wakeInterval().toMillis(),
                SwaleConfiguration.durability(props));
    }

    @Bean
    DeclaredResources declaredResources(ResourceStore store, ResourcesProperties resources) {
        return new DeclaredResources(store, Duration.ofSeconds(2), resources.capacities().keySet());
    }

    @Bean(destroyMethod = "close")
    ResourceGate resourceGate(ResourceStore store, TaskStore tasks, DefinitionCatalog catalog, KafkaDispatcher dispatcher,
            SwaleProperties props, ResourcesProperties resources, DeclaredResources declared,
            ScheduledExecutorService attemptTicker, ObjectProvider<MeterRegistry> registry, RunStore runs,
            WorkerConfiguration.TaskVariables taskVariables) {
        MeterRegistry r = registry.getIfAvailable();
        ResourceGate.WaitTimes waits = r == null ? (name, ms) -> { }
                : (name, ms) -> Timer.builder("swale.resources.wait").description("Time from first wait to lease grant")
                        .tag("resource", name).register(r).record(Duration.ofMillis(ms));
        return new ResourceGate(store, tasks, catalog::find, dispatcher,
                new ResourceGate.Settings(props.worker().lease().toMillis(), props.worker().heartbeat(),
                        resources.strict(), taskVariables.variables()),
                declared::declares, waits, attemptTicker,
                // a grown node's leases are in the run's effective graph (docs/dynamic-graphs.md §8.9)
                // an item's rerun counts apart from its node's (MappedItems)
                (id, definition, node) -> runs.read(id.runKey()).flatMap(view -> id.node().equals(node)
                        ? RunGraphs.grownNodeFor(definition, view, node, id.rerun())
                        : RunGraphs.of(definition, view).node(node)));
    }

    @Bean
    ResourceReaper resourceReaper(ResourceStore store, ResourceGate gate, SwaleProperties props,
            ResourcesProperties resources, ObjectProvider<MeterRegistry> registry, RunCancellation cancellation,
            RunStore runs) {
        cancellation.onLeasedInstanceCancelled(runId -> gate.wake(store.leave(runId).wake()));
        return new ResourceReaper(store, gate, props, resources, registry.getIfAvailable(),
                new StaleWaiters(store, runs, STALE_CHECK_LIMIT));
    }

    /** Declared resource names, read at most every {@code maxAge}: what strict mode checks rendered names against. */
    public static final class DeclaredResources {
        private final ResourceStore store;
        private final long maxAgeNanos;
        private final Set<String> configured;
        private volatile Set<String> names = Set.of();
        private volatile long readAt = Long.MIN_VALUE;

        DeclaredResources(ResourceStore store, Duration maxAge, Set<String> configured) {
            this.store = store;
            this.maxAgeNanos = maxAge.toNanos();
            this.configured = Set.copyOf(configured);
        }

        /**
         * Whether {@code name} has a declared capacity: this replica's configuration declares it (though its
         * start may not have written it yet), or Redis does. A name missing from what was read is asked of Redis
         * at once, since a PUT on another replica declares it for every replica at once.
         */
        public boolean declares(String name) {
            return configured.contains(name) || names().contains(name) || store.declared(name);
        }

        public Set<String> names() {
            long now = System.nanoTime();
            if (readAt == Long.MIN_VALUE || now - readAt > maxAgeNanos) {
                names = store.resources().values().stream().filter(ResourceStore.Resource::declared)
                        .map(ResourceStore.Resource::name).collect(java.util.stream.Collectors.toUnmodifiableSet());
                readAt = now;
            }
            return names;
        }

        /** Forgets what was read: the next question reads again (after a PUT on this replica). */
        public void refresh() {
            readAt = Long.MIN_VALUE;
        }
    }
}
