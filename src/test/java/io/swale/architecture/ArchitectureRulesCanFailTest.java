package io.swale.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.swale.api.archfixture.ControllerAskingForValidation;
import io.swale.api.archfixture.ControllerCheckingItself;
import io.swale.archfixture.a.CycleA;
import io.swale.archfixture.b.CycleB;
import io.swale.graph.Graph;
import io.swale.graph.archfixture.CoreUsingRunLogic;
import io.swale.graph.archfixture.CoreUsingSpring;
import io.swale.run.archfixture.RunUsingJedis;
import io.swale.worker.archfixture.WorkerUsingRedisAdapter;
import org.junit.jupiter.api.Test;

/** Each architecture rule catches the break it is written for, and passes a class that keeps it. */
class ArchitectureRulesCanFailTest {
    private static EvaluationResult evaluate(ArchRule rule, Class<?>... classes) {
        JavaClasses imported = new ClassFileImporter().importClasses(classes);
        return rule.allowEmptyShould(true).evaluate(imported);
    }

    @Test
    void aCoreClassUsingSpringBreaksThePureCoreRule() {
        assertThat(evaluate(ArchitectureRules.PURE_CORE_IMPORTS_NO_FRAMEWORK, CoreUsingSpring.class)
                .hasViolation()).isTrue();
        assertThat(evaluate(ArchitectureRules.PURE_CORE_IMPORTS_NO_FRAMEWORK, Graph.class).hasViolation())
                .isFalse();
    }

    @Test
    void aCoreClassUsingTheRunLogicBreaksTheCoreAtTheBottomRule() {
        assertThat(evaluate(ArchitectureRules.PURE_CORE_DEPENDS_ONLY_ON_CORE, CoreUsingRunLogic.class)
                .hasViolation()).isTrue();
        assertThat(evaluate(ArchitectureRules.PURE_CORE_DEPENDS_ONLY_ON_CORE, Graph.class).hasViolation())
                .isFalse();
    }

    @Test
    void runLogicUsingJedisBreaksTheLogicRule() {
        assertThat(evaluate(ArchitectureRules.LOGIC_IMPORTS_NO_FRAMEWORK, RunUsingJedis.class).hasViolation())
                .isTrue();
    }

    @Test
    void theWorkerNamingAnAdapterBreaksTheAdaptersRule() {
        assertThat(evaluate(ArchitectureRules.LOGIC_NEVER_DEPENDS_ON_ADAPTERS, WorkerUsingRedisAdapter.class)
                .hasViolation()).isTrue();
    }

    @Test
    void twoPackagesThatNameEachOtherBreakTheCycleRule() {
        assertThat(evaluate(ArchitectureRules.NO_PACKAGE_CYCLES, CycleA.class, CycleB.class).hasViolation())
                .isTrue();
        assertThat(evaluate(ArchitectureRules.NO_PACKAGE_CYCLES, CycleA.class).hasViolation()).isFalse();
    }

    @Test
    void anArgumentMarkedValidBreaksTheValidationRule() {
        assertThat(evaluate(ArchitectureRules.NO_BEAN_VALIDATION, ControllerAskingForValidation.class).hasViolation())
                .isTrue();
        assertThat(evaluate(ArchitectureRules.NO_BEAN_VALIDATION, ControllerCheckingItself.class).hasViolation())
                .isFalse();
    }
}
