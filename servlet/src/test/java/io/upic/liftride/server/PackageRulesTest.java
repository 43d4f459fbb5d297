package io.upic.liftride.server;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.upic.liftride.server.operations.ContextAttributes;
import io.upic.liftride.server.operations.Drain;
import io.upic.liftride.server.operations.EndpointStats;
import io.upic.liftride.server.operations.ManagementPort;
import io.upic.liftride.server.operations.Metrics;
import org.junit.jupiter.api.Test;

/**
 * The server's package structure, on its main classes: no package is in a cycle; {@code operations}
 * (the application's assembly, health, drain, metrics, settings and the operator's endpoints) never
 * uses the API ({@code web}); the API uses from {@code operations} only what its requests feed or
 * read: the shared objects ({@link ContextAttributes}), the drain state ({@link Drain}), the request
 * measurements ({@link EndpointStats}), the 503 counters ({@link Metrics}) and which port a request
 * came in on ({@link ManagementPort}). Both write their answers through {@code http}.
 */
class PackageRulesTest {
    private static final String API = "io.upic.liftride.server.web";
    private static final String OPERATIONS = "io.upic.liftride.server.operations";

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.upic.liftride.server");

    @Test
    void noPackageIsInACycle() {
        slices().matching("io.upic.liftride.server.(**)")
                .should()
                .beFreeOfCycles()
                .check(MAIN);
    }

    @Test
    void operationsNeverUseTheApi() {
        noClasses()
                .that()
                .resideInAPackage(OPERATIONS)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(API)
                .check(MAIN);
    }

    @Test
    void theApiUsesOnlyTheOperationsItsRequestsFeedOrRead() {
        noClasses()
                .that()
                .resideInAPackage(API)
                .should()
                .dependOnClassesThat(resideInAPackage(OPERATIONS)
                        .and(not(belongToAnyOf(
                                ContextAttributes.class,
                                Drain.class,
                                EndpointStats.class,
                                Metrics.class,
                                ManagementPort.class))))
                .check(MAIN);
    }
}
