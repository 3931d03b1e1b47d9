package io.swale.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.store.ResourceStore;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What strict mode takes as declared (docs/resources.md): a PUT on another replica declares a resource for
 * every replica at once, though each keeps what it read for a while; this replica's configured capacities
 * count before its start has written them.
 */
class DeclaredResourcesTest {
    private final Map<String, ResourceStore.Resource> stored = new ConcurrentHashMap<>();
    private final AtomicInteger reads = new AtomicInteger();
    private final ResourceStore store = (ResourceStore) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {ResourceStore.class}, (proxy, method, args) -> switch (method.getName()) {
                case "resources" -> {
                    reads.incrementAndGet();
                    yield Map.copyOf(stored);
                }
                case "declared" -> stored.containsKey((String) args[0]);
                default -> throw new UnsupportedOperationException(method.getName());
            });

    private void declare(String name) {
        stored.put(name, new ResourceStore.Resource(name, 2, true, 0, List.of(), List.of()));
    }

    @Test
    void aResourceDeclaredElsewhereSinceTheLastReadIsDeclaredAtOnce() {
        ResourceConfiguration.DeclaredResources declared = new ResourceConfiguration.DeclaredResources(store,
                Duration.ofHours(1), Set.of());
        declare("a");
        assertThat(declared.declares("a")).isTrue();
        int before = reads.get();
        assertThat(declared.declares("a")).as("a name found is not read again").isTrue();
        assertThat(reads.get()).isEqualTo(before);

        declare("b");
        assertThat(declared.declares("b")).isTrue();
        assertThat(declared.declares("c")).isFalse();
    }

    @Test
    void aConfiguredCapacityIsDeclaredBeforeItIsWritten() {
        ResourceConfiguration.DeclaredResources declared = new ResourceConfiguration.DeclaredResources(store,
                Duration.ofHours(1), Set.of("warehouse"));
        assertThat(declared.declares("warehouse")).isTrue();
        assertThat(declared.declares("other")).isFalse();
    }
}
