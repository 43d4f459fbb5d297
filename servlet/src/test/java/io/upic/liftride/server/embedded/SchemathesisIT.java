package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.cluster.Programs;
import io.upic.liftride.testkit.Shell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract and the server agree: schemathesis (PyPI) generates requests from
 * {@code swagger/skidata-api.yaml}, valid and invalid, sends them to the embedded server on
 * loopback, and checks every answer. The run must end with 0 failures for the six checks below: no
 * 5XX, invalid data refused with a 4XX, schema-valid data accepted, only documented statuses and
 * content types, and bodies that match their schemas.
 *
 * <p>Needs {@code python3} (3.9+): schemathesis, pinned to {@value #VERSION}, is installed by the test
 * kit ({@code Shell.requirePip}) with pip into its own virtual environment under
 * {@code ~/.cache/liftride/} the first time (about a minute and a half here) and reused after; if it
 * cannot be installed the test fails and says why, it never skips. The fuzzing itself is bounded by
 * {@code --max-time} ({@value #MAX_SECONDS} s) and runs with a fixed seed, so a failure can be
 * replayed; {@code -Dliftride.schemathesis.seed=N} picks another. Its JUnit report goes to
 * {@code target/schemathesis/}.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES) // a bound for a first-time pip install plus the run
class SchemathesisIT {

    static final String VERSION = "4.32.5";
    static final int MAX_SECONDS = 30;
    /** Per operation in the fuzzing phase; the examples and coverage phases add their own. */
    static final int MAX_EXAMPLES = 15;

    private static final String CHECKS = "not_a_server_error,negative_data_rejection,positive_data_acceptance,"
            + "status_code_conformance,content_type_conformance,response_schema_conformance";
    private static final Path CONTRACT = Path.of("..", "swagger", "skidata-api.yaml");
    private static final Path OUT = Path.of("target", "schemathesis");

    @Test
    void everyRequestTheContractAllowsOrForbidsGetsTheAnswerTheContractPromises() throws Exception {
        Path st = Shell.requirePip("st", "schemathesis", VERSION);
        Files.createDirectories(OUT);
        long seed = Long.getLong("liftride.schemathesis.seed", 20_261_123L);
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            // a schema-valid ride may meet a key a generated request used before: 422, as documented
            Path config = Files.writeString(
                    OUT.resolve("schemathesis.toml"),
                    "[checks.positive_data_acceptance]\nexpected-statuses = "
                            + "[\"2xx\", \"3xx\", \"401\", \"403\", \"404\", \"409\", \"422\", \"429\", \"5xx\"]\n");
            List<String> command = List.of(
                    st.toString(),
                    "--config-file",
                    config.toAbsolutePath().toString(),
                    "run",
                    CONTRACT.toAbsolutePath().normalize().toString(),
                    "--url",
                    server.baseUrl(),
                    "--checks",
                    CHECKS,
                    // the stateful phase follows links; the contract declares none, and those schemathesis
                    // infers from /statistics (whose URL values are route templates) put a literal
                    // "{seasonID}" into paths: requests the contract does not allow, reported as valid ones
                    "--phases",
                    "examples,coverage,fuzzing",
                    "--max-time",
                    Integer.toString(MAX_SECONDS),
                    "--max-examples",
                    Integer.toString(MAX_EXAMPLES),
                    "--seed",
                    Long.toString(seed),
                    // one worker: hypothesis parses lambdas' source with ast, which two threads at once can
                    // break in CPython 3.11 ("AST constructor recursion depth mismatch")
                    "--workers",
                    "1",
                    "--request-timeout",
                    "10",
                    "--generation-database",
                    "none",
                    "--no-color",
                    "--report",
                    "junit",
                    "--report-dir",
                    OUT.toAbsolutePath().toString());
            // in target/: schemathesis keeps a cache directory where it runs
            Programs.Result run = Programs.execIn(OUT, Duration.ofSeconds(MAX_SECONDS + 60), command);
            System.out.println(run.output());
            assertEquals(
                    0,
                    run.exitCode(),
                    "schemathesis found requests where the server and the contract disagree (seed " + seed
                            + "; reports in " + OUT + "):\n" + run.tail(120));
            assertTrue(
                    run.output().contains("11 selected / 11 total"),
                    "every operation of the contract was tested:\n" + run.tail(40));
        }
    }
}
