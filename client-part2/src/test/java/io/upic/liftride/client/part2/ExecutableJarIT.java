package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What users run, target/client-part2.jar, as they run it: a small run against its embedded server prints
 * nothing on stderr but the client's own lines. Its shaded dependencies once held the SLF4J 2 API beside a
 * 1.7 binding, and every run began with three SLF4J warning lines, one of them naming the jar's path.
 */
class ExecutableJarIT {
    private static final Path JAR = Path.of("target", "client-part2.jar");

    @TempDir
    Path work;

    @Test
    void aRunFromTheJarPrintsNoLoggingWarnings() throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " must be built by the package phase");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = work.resolve("stdout.txt");
        Path err = work.resolve("stderr.txt");
        Process p = new ProcessBuilder(List.of(
                        java,
                        "-jar",
                        JAR.toString(),
                        "-t",
                        "2",
                        "-s",
                        "20",
                        "-m",
                        "1",
                        "--baseline",
                        "0",
                        "--out",
                        work.resolve("run").toString()))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the run ends by itself");
        } finally {
            p.destroyForcibly();
        }
        String printed = Files.readString(out) + "\n--- stderr ---\n" + Files.readString(err);
        assertEquals(0, p.exitValue(), printed);
        assertFalse(printed.contains("SLF4J"), printed);
    }
}
