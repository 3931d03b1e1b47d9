package io.swale.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;

/**
 * The shape of the code base, as rules. Kept apart from the test that applies them to the production
 * classes so that {@code ArchitectureRulesCanFailTest} can apply the very same rules to deliberately broken
 * fixtures.
 */
final class ArchitectureRules {
    private ArchitectureRules() {}

    /** Definition, graph, readiness, template, cron dialect and records: the pure core. */
    static final String[] PURE_CORE = {
        "io.swale.definition..", "io.swale.graph..", "io.swale.readiness..", "io.swale.template..",
        "io.swale.cron..", "io.swale.record.."
    };

    /** The logic behind the ports: storage ports and values, task kernel, run logic, worker, triggers, requests, operators. */
    static final String[] LOGIC = {
        "io.swale.store", "io.swale.task..", "io.swale.run..", "io.swale.worker..", "io.swale.trigger..",
        "io.swale.request..", "io.swale.operator.."
    };

    /** Packages that plug the logic into frameworks, wire it, or serve it to users. */
    static final String[] ADAPTERS = {
        "io.swale.store.redis..", "io.swale.kafka..", "io.swale.config..", "io.swale.roles..", "io.swale.periodic..",
        "io.swale.api..", "io.swale.cli..", "io.swale.local..", "io.swale.metrics..", "io.swale.actuate..",
        "io.swale.security..", "io.swale.settings.."
    };

    static final String[] FRAMEWORKS = {
        "org.springframework..", "org.apache.kafka..", "redis.clients..", "org.quartz..", "net.javacrumbs.shedlock..",
        "io.micrometer..", "jakarta.servlet..", "org.apache.catalina.."
    };

    static final ArchRule PURE_CORE_IMPORTS_NO_FRAMEWORK = noClasses()
            .that().resideInAnyPackage(PURE_CORE)
            .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
            .because("the pure core must run and be tested without Spring, Kafka, Redis or Quartz");

    static final ArchRule PURE_CORE_DEPENDS_ONLY_ON_CORE = classes()
            .that().resideInAnyPackage(PURE_CORE)
            .should().onlyDependOnClassesThat(
                    com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage("io.swale..")
                            .or(com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage(PURE_CORE)))
            .because("the pure core sits at the bottom: nothing of storage, runs or workers may leak into it");

    static final ArchRule LOGIC_IMPORTS_NO_FRAMEWORK = noClasses()
            .that().resideInAnyPackage(LOGIC)
            .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
            .because("the run logic, task kernel and worker speak to Kafka and Redis only through ports");

    static final ArchRule LOGIC_NEVER_DEPENDS_ON_ADAPTERS = noClasses()
            .that().resideInAnyPackage(PURE_CORE).or().resideInAnyPackage(LOGIC)
            .should().dependOnClassesThat().resideInAnyPackage(ADAPTERS)
            .because("adapters depend on ports, never the reverse");

    static final ArchRule NO_BEAN_VALIDATION = noClasses()
            .that().resideInAPackage("io.swale..")
            .should().dependOnClassesThat().resideInAnyPackage("jakarta.validation..", "javax.validation..")
            .because("Spring MVC's validator here supports nothing (NoBeanValidation, which keeps Hibernate Validator"
                    + " out of the start): a @Valid or a constraint would check nothing; each controller checks its"
                    + " input itself");

    static final ArchRule NO_PACKAGE_CYCLES = slices()
            .matching("io.swale.(**)")
            .should().beFreeOfCycles();
}
