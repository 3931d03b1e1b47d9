package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.definition.CronCheck;
import io.swale.definition.DefinitionLoader;
import io.swale.operator.OperatorRegistry;
import io.swale.store.DefinitionStore;
import io.swale.store.DefinitionStore.StoredText;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A store that fails while a pending definition is read fails the whole sync pass (spec §4.5), which the next
 * interval retries; only a definition that does not load is refused.
 */
class AdoptionStoreFailureTest {
    private static final String HASH = "h1";

    private final List<String> writes = new ArrayList<>();

    private DefinitionStore store(StoredTextSource texts) {
        return (DefinitionStore) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DefinitionStore.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "currentPointers" -> new TreeMap<>(Map.of("g", HASH));
                    case "graphRecords", "refusals" -> new TreeMap<>();
                    case "text" -> texts.text();
                    case "putRefusal", "putGraphRecord", "clearRefusal" -> {
                        writes.add(method.getName());
                        yield null;
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private interface StoredTextSource {
        java.util.Optional<StoredText> text();
    }

    private Adoption adoption(DefinitionStore store) {
        PoolCatalog pools = new PoolCatalog() {
            @Override
            public boolean isConfigured(String pool) {
                return true;
            }

            @Override
            public Map<String, Integer> pools() {
                return Map.of("default", 4);
            }

            @Override
            public void ensure(Set<String> names) {}
        };
        var catalog = new DefinitionCatalog(store, new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS));
        return new Adoption(store, catalog, pools, Clock.systemUTC());
    }

    @Test
    void aStoreFailureReadingAPendingDefinitionFailsThePassAndRefusesNothing() {
        Adoption adoption = adoption(store(() -> {
            throw new java.io.UncheckedIOException(new java.net.SocketTimeoutException("Read timed out"));
        }));
        assertThatThrownBy(adoption::sync).isInstanceOf(java.io.UncheckedIOException.class);
        assertThat(writes).isEmpty();
    }

    @Test
    void aStoredTextThatDoesNotLoadIsRefused() {
        Adoption adoption = adoption(store(() -> java.util.Optional.of(new StoredText("[graph\n", "toml"))));
        Adoption.Report report = adoption.sync();
        assertThat(report.refused()).containsOnlyKeys("g");
        assertThat(report.refused().get("g")).startsWith("definition `h1` does not load: ");
        assertThat(writes).containsExactly("putRefusal");
    }
}
