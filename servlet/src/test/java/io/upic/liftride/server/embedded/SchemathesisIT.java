package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * <p>Needs {@code python3} (3.9+) on the PATH. schemathesis, pinned to {@value #VERSION}, is installed
 * with pip into its own virtual environment under {@code ~/.cache/liftride/} the first time (about
 * a minute and a half here) and reused after; without python3 the test fails and says so, it never
 * skips. The fuzzing itself is bounded by {@code --max-time} ({@value #MAX_SECONDS} s) and runs with a
 * fixed seed, so a failure can be replayed; {@code -Dliftride.schemathesis.seed=N} picks another.
 * Its JUnit report goes to {@code target/schemathesis/}.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES) // a bound for a first-time pip install plus the run
class SchemathesisIT {

    static final String VERSION = "4.32.5";
    static final int MAX_SECONDS = 90;
    private static final String CHECKS = "not_a_server_error,negative_data_rejection,positive_data_acceptance,"
            + "status_code_conformance,content_type_conformance,response_schema_conformance";
    private static final Path CONTRACT = Path.of("..", "swagger", "skidata-api.yaml");
    private static final Path OUT = Path.of("target", "schemathesis");
    private static final Path VENV =
            Path.of(System.getProperty("user.home"), ".cache", "liftride", "schemathesis-" + VERSION);

    @Test
    void everyRequestTheContractAllowsOrForbidsGetsTheAnswerTheContractPromises() throws Exception {
        Path st = schemathesis();
        Files.createDirectories(OUT);
        long seed = Long.getLong("liftride.schemathesis.seed", 20_261_123L);
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            List<String> command = List.of(
                    st.toString(),
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
                    "100",
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
            Run run = Run.of(command, OUT, MAX_SECONDS + 60);
            System.out.println(run.output());
            assertEquals(
                    0,
                    run.exit(),
                    "schemathesis found requests where the server and the contract disagree (seed " + seed
                            + "; reports in " + OUT + "):\n" + run.tail(120));
            assertTrue(
                    run.output().contains("11 selected / 11 total"),
                    "every operation of the contract was tested:\n" + run.tail(40));
        }
    }

    /** The schemathesis command line of {@link #VENV}, installed there with pip first if it is not. */
    private static Path schemathesis() throws Exception {
        Path st = VENV.resolve("bin").resolve("st");
        if (Files.isExecutable(st)) {
            Run version = Run.of(List.of(st.toString(), "--version"), VENV, 60);
            if (version.exit() == 0 && version.output().contains(VERSION)) {
                return st;
            }
        }
        String python = System.getProperty("liftride.python", "python3");
        Run venv;
        try {
            venv = Run.of(List.of(python, "-m", "venv", "--clear", VENV.toString()), Path.of("target"), 300);
        } catch (IOException e) {
            fail("schemathesis needs Python 3 (" + python + " on the PATH, or -Dliftride.python=...) to be installed: "
                    + e.getMessage());
            throw e;
        }
        assertEquals(0, venv.exit(), () -> "could not create a virtual environment in " + VENV + ":\n" + venv.tail(30));
        System.out.println("installing schemathesis " + VERSION + " into " + VENV + " (pip, once)");
        Run pip = Run.of(
                List.of(VENV.resolve("bin").resolve("pip").toString(), "install", "-q", "schemathesis==" + VERSION),
                Path.of("target"),
                600);
        assertEquals(0, pip.exit(), () -> "pip could not install schemathesis " + VERSION + ":\n" + pip.tail(30));
        return st;
    }

    /** A finished child process: its exit code and its output (stdout and stderr). */
    private record Run(int exit, String output) {

        /** Runs {@code command} in {@code dir}, killing it after {@code timeoutSeconds}. */
        static Run of(List<String> command, Path dir, long timeoutSeconds) throws IOException, InterruptedException {
            Files.createDirectories(dir);
            Path log = Files.createTempFile(OUT.getParent(), "child", ".log");
            try {
                ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command))
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile());
                builder.environment().put("PYTHONUNBUFFERED", "1");
                Process process = builder.start();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    fail(String.join(" ", command) + " did not end within " + timeoutSeconds + " s:\n"
                            + tail(Files.readString(log, StandardCharsets.UTF_8), 60));
                }
                return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(log);
            }
        }

        String tail(int lines) {
            return tail(output, lines);
        }

        private static String tail(String text, int lines) {
            String[] all = text.split("\n", -1);
            return String.join("\n", java.util.Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
        }
    }
}
