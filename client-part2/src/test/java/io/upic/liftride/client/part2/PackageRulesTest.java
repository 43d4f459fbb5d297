package io.upic.liftride.client.part2;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The package structure of both clients' main code: no cycle, and only the applications import the top. */
class PackageRulesTest {

    /** Main code only: client-part1 comes as classes or as a jar, its tests as test-classes or a tests jar. */
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.asURI().toString().contains("-tests.jar"))
            .importPackages("io.upic.liftride.client");

    @Test
    void noPackageOfEitherClientIsInACycle() {
        slices().matching("io.upic.liftride.client.(**)")
                .should()
                .beFreeOfCycles()
                .check(MAIN);
    }

    @Test
    void onlyClientPart2ImportsClientPart1sApplicationPackage() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.upic.liftride.client", "io.upic.liftride.client.part2")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.upic.liftride.client")
                .check(MAIN);
    }

    @Test
    void theEngineImportsNeitherTheCommandLineNorTheReports() {
        noClasses()
                .that()
                .resideInAPackage("io.upic.liftride.client.engine..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.upic.liftride.client.cli..", "io.upic.liftride.client.report..")
                .check(MAIN);
    }

    @Test
    void thePredictionImportsNeitherTheCommandLineNorTheReports() {
        noClasses()
                .that()
                .resideInAPackage("io.upic.liftride.client.prediction..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.upic.liftride.client.cli..", "io.upic.liftride.client.report..")
                .orShould()
                .dependOnClassesThat()
                .resideInAPackage("io.upic.liftride.client.part2..")
                .check(MAIN);
    }
}
