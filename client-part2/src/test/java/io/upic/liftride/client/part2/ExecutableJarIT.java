package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What users run, target/client-part2.jar, as they run it: a small run against its embedded server prints
 * nothing but the client's own lines (the server's with --verbose), a bad flag one line. Its shaded dependencies
 * once held the SLF4J 2 API beside a 1.7 binding, and every run began with three SLF4J warning lines, one of them
 * naming the jar's path.
 */
class ExecutableJarIT {
    private static final Path JAR = Path.of("target", "client-part2.jar");

    @TempDir
    Path work;

    /** The jar run with {@code args}: its exit code, stdout and stderr. */
    private record Ran(int exit, String out, String err) {
        String printed() {
            return out + "\n--- stderr ---\n" + err;
        }
    }

    private Ran run(String name, String... args) throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " must be built by the package phase");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = work.resolve(name + ".out");
        Path err = work.resolve(name + ".err");
        List<String> command = new ArrayList<>(List.of(java, "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the run ends by itself");
        } finally {
            p.destroyForcibly();
        }
        return new Ran(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private Ran smallRun(String name, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "-t",
                "2",
                "-s",
                "20",
                "-m",
                "1",
                "--baseline",
                "0",
                "--out",
                work.resolve(name).toString()));
        args.addAll(List.of(more));
        return run(name, args.toArray(String[]::new));
    }

    @Test
    void aRunFromTheJarPrintsNoLoggingWarningsNorTheServersLinesAndEndsWithTheReport() throws Exception {
        Ran ran = smallRun("quiet");
        assertEquals(0, ran.exit(), ran.printed());
        assertFalse(ran.printed().contains("SLF4J"), ran.printed());
        assertFalse(
                ran.printed().contains("LiftRide"), "the embedded server's lines are --verbose's\n" + ran.printed());
        List<String> lines = ran.out().lines().toList();
        assertEquals(
                "Report: " + work.resolve("quiet").resolve("report.html"), lines.get(lines.size() - 1), ran.printed());
    }

    @Test
    void verboseShowsTheEmbeddedServersDrain() throws Exception {
        Ran ran = smallRun("verbose", "--verbose");
        assertEquals(0, ran.exit(), ran.printed());
        assertTrue(ran.out().contains("\nLiftRide drain: "), ran.printed());
        assertTrue(ran.out().contains("  scope      attempts"), "the full account\n" + ran.printed());
    }

    @Test
    void aBadFlagIsOneLineNamingFlagRuleAndValueWithTheHelpHintAndExitsTwo() throws Exception {
        Ran ran = run("bad", "-t", "8", "-s", "1000", "-l", "61");
        assertEquals(2, ran.exit(), ran.printed());
        assertEquals("-l/--lifts must be an integer in 5..60, got 61 (--help lists the options)\n", ran.err());
        assertEquals("", ran.out());
    }
}
