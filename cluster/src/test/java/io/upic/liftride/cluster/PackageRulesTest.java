package io.upic.liftride.cluster;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The module's package structure, on its main classes: no package is in a cycle, and the test kit
 * ({@code testkit}, which the other modules' tests use) never uses the local cluster built on it.
 */
class PackageRulesTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.upic.liftride.testkit", "io.upic.liftride.cluster");

    @Test
    void noPackageIsInACycle() {
        slices().matching("io.upic.liftride.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void theTestKitNeverUsesTheCluster() {
        noClasses()
                .that()
                .resideInAPackage("io.upic.liftride.testkit..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.upic.liftride.cluster..")
                .check(MAIN);
    }
}
