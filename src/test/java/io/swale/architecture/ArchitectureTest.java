package io.swale.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The production classes keep the shape the rules describe. */
@AnalyzeClasses(packages = "io.swale", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule pureCoreImportsNoFramework = ArchitectureRules.PURE_CORE_IMPORTS_NO_FRAMEWORK;

    @ArchTest
    static final ArchRule pureCoreDependsOnlyOnCore = ArchitectureRules.PURE_CORE_DEPENDS_ONLY_ON_CORE;

    @ArchTest
    static final ArchRule logicImportsNoFramework = ArchitectureRules.LOGIC_IMPORTS_NO_FRAMEWORK;

    @ArchTest
    static final ArchRule logicNeverDependsOnAdapters = ArchitectureRules.LOGIC_NEVER_DEPENDS_ON_ADAPTERS;

    @ArchTest
    static final ArchRule noBeanValidation = ArchitectureRules.NO_BEAN_VALIDATION;

    @ArchTest
    static final ArchRule noPackageCycles = ArchitectureRules.NO_PACKAGE_CYCLES;
}
