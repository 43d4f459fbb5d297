package io.upic.liftride.cluster;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The module's package structure: no package is in a cycle, and the cluster's main classes never use the test
 * kit ({@code testkit}, the test-jar the other modules' tests use, which is built on the cluster).
 */
class PackageRulesTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.upic.liftride.cluster");
    private static final JavaClasses ALL =
            new ClassFileImporter().importPackages("io.upic.liftride.testkit", "io.upic.liftride.cluster");

    @Test
    void noPackageIsInACycle() {
        slices().matching("io.upic.liftride.(**)").should().beFreeOfCycles().check(ALL);
    }

    @Test
    void theClusterNeverUsesTheTestKit() {
        noClasses()
                .that()
                .resideInAPackage("io.upic.liftride.cluster..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.upic.liftride.testkit..")
                .check(MAIN);
    }
}
