package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.definition.CronCheck;
import io.swale.definition.DefinitionLoader;
import io.swale.operator.OperatorRegistry;
import io.swale.run.DefinitionCatalog;
import io.swale.store.DefinitionStore;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Local mode publishes every definition file of its folder (spec §1.9), as publish names the formats. */
class DefinitionDirectoryTest {
    @TempDir
    Path dir;

    private final List<String> pointed = new CopyOnWriteArrayList<>();
    private final DefinitionStore store = (DefinitionStore) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {DefinitionStore.class}, (proxy, method, args) -> switch (method.getName()) {
                case "currentPointers", "graphRecords" -> new TreeMap<String, Object>();
                case "text", "graphRecord", "pointer" -> Optional.empty();
                case "putText" -> null;
                case "movePointer" -> {
                    pointed.add((String) args[0]);
                    yield method.getReturnType() == boolean.class ? Boolean.TRUE
                            : method.getReturnType() == DefinitionStore.PointerMove.class ? DefinitionStore.PointerMove.MOVED : null;
                }
                default -> throw new UnsupportedOperationException(method.getName());
            });

    private static String graph(String name) {
        return "[graph]\nname = \"" + name + "\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\n";
    }

    /** Was: `Orders.TOML` was left out, and nothing said so. */
    @Test
    void filesNamedInUpperCaseArePublishedToo() throws IOException {
        Files.writeString(dir.resolve("lower.toml"), graph("lower"));
        Files.writeString(dir.resolve("Upper.TOML"), graph("upper"));
        Files.writeString(dir.resolve("Mixed.Yml"), "graph:\n  name: mixed\nnode:\n  - name: a\n    operator: noop\n");
        Files.writeString(dir.resolve("notes.txt"), "not a definition");

        int changed = new DefinitionDirectory(dir, new DefinitionCatalog(store,
                new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS))).publishAll();

        assertThat(pointed).containsExactlyInAnyOrder("lower", "upper", "mixed");
        assertThat(changed).isEqualTo(3);
    }

    /** Was: both files were published on every pass, the graph's pointer moving twice each time. */
    @Test
    void ofTwoFilesOfOneGraphOnlyTheFirstByNameIsPublished() throws IOException {
        Files.writeString(dir.resolve("orders.toml"), graph("orders"));
        Files.writeString(dir.resolve("orders.yaml"), "graph:\n  name: orders\nnode:\n  - name: b\n    operator: noop\n");
        Files.writeString(dir.resolve("other.toml"), graph("other"));

        DefinitionDirectory directory = new DefinitionDirectory(dir, new DefinitionCatalog(store,
                new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS)));

        assertThat(directory.publishAll()).isEqualTo(2);
        assertThat(pointed).containsExactly("orders", "other");
    }

    /**
     * docs/resources.md, strict mode: a literal lease on a resource with no declared capacity is refused at publish,
     * from the folder as by request. Was: the folder published with the plain loader, and every run of the node
     * failed at its claim instead.
     */
    @Test
    void inStrictResourceModeAFileLeasingAnUndeclaredResourceIsNotPublished() throws IOException {
        Files.writeString(dir.resolve("leasing.toml"), graph("leasing") + "leases = [\"warehouse\"]\n");
        Files.writeString(dir.resolve("declared.toml"), graph("declared") + "leases = [\"db\"]\n");
        DefinitionLoader loader = new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS);

        DefinitionDirectory directory = new DefinitionDirectory(dir, new DefinitionCatalog(store, loader,
                loader.withDeclaredResources("db"::equals)));

        assertThat(directory.publishAll()).isEqualTo(1);
        assertThat(pointed).containsExactly("declared");
    }
}
