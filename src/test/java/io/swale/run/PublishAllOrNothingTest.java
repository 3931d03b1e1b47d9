package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.definition.CronCheck;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.DefinitionLoader;
import io.swale.operator.OperatorRegistry;
import io.swale.store.DefinitionStore;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A publish stores nothing when preparing the definition (creating its pools' topics) fails. */
class PublishAllOrNothingTest {
    private static final byte[] TOML = "[graph]\nname = \"g\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\npool = \"p\"\n"
            .getBytes(StandardCharsets.UTF_8);

    private final List<String> writes = new ArrayList<>();
    private final DefinitionStore store = (DefinitionStore) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {DefinitionStore.class}, (proxy, method, args) -> switch (method.getName()) {
                case "currentPointers" -> new TreeMap<String, String>();
                case "putText", "movePointer" -> {
                    writes.add(method.getName());
                    yield method.getReturnType() == boolean.class ? Boolean.TRUE
                            : method.getReturnType() == DefinitionStore.PointerMove.class ? DefinitionStore.PointerMove.MOVED : null;
                }
                default -> throw new UnsupportedOperationException(method.getName());
            });
    private final DefinitionCatalog catalog = new DefinitionCatalog(store,
            new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS));

    @Test
    void aFailingPreparationStoresNothing() {
        assertThatThrownBy(() -> catalog.publish(TOML, DefinitionFormat.TOML, d -> {
            throw new IllegalStateException("no topics");
        })).hasMessage("no topics");
        assertThat(writes).isEmpty();
    }

    @Test
    void aPreparedDefinitionIsStoredAndPointedAt() {
        List<String> prepared = new ArrayList<>();
        catalog.publish(TOML, DefinitionFormat.TOML, d -> prepared.addAll(d.graph().pools()));
        assertThat(prepared).containsExactly("p");
        assertThat(writes).containsExactly("putText", "movePointer");
    }

    /**
     * Another graph's missing definition is skipped (spec §1.9), and so, unlike the spec, is one that no longer loads:
     * with two such graphs, the publish that mends either would fail on the other, and no request removes a pointer.
     */
    @Test
    void anotherGraphsDefinitionThatIsMissingOrDoesNotLoadIsSkipped() {
        DefinitionStore others = (DefinitionStore) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DefinitionStore.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "currentPointers" -> new TreeMap<>(java.util.Map.of("broken", "h-broken", "missing", "h-missing"));
                    case "text" -> args[0].equals("h-broken")
                            ? java.util.Optional.of(new DefinitionStore.StoredText("[graph\n", "toml"))
                            : java.util.Optional.empty();
                    case "putText", "movePointer" -> {
                        writes.add(method.getName());
                        yield method.getReturnType() == boolean.class ? Boolean.TRUE
                            : method.getReturnType() == DefinitionStore.PointerMove.class ? DefinitionStore.PointerMove.MOVED : null;
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        DefinitionCatalog withOthers = new DefinitionCatalog(others,
                new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS));

        assertThat(withOthers.publish(TOML, DefinitionFormat.TOML).changed()).isTrue();
        assertThat(writes).containsExactly("putText", "movePointer");
    }
}
