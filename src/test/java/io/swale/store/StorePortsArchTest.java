package io.swale.store;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The store ports speak domain values: they depend only on the pure core, and only the wiring (and the
 * bench, which reads Redis directly) reaches into the Redis adapter, where every storage codec lives.
 */
class StorePortsArchTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.swale");

    @Test
    void thePortsDependOnlyOnThePureCore() {
        classes().that().resideInAPackage("io.swale.store")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.swale.store", "io.swale.record",
                        "io.swale.graph", "java..", "tools.jackson..")
                .check(MAIN);
    }

    @Test
    void onlyTheWiringReachesTheRedisAdapter() {
        noClasses().that().resideOutsideOfPackages("io.swale.store.redis", "io.swale.config",
                        "io.swale.api.dashboard", "io.swale.bench")
                .should().dependOnClassesThat().resideInAPackage("io.swale.store.redis")
                .check(MAIN);
    }
}
