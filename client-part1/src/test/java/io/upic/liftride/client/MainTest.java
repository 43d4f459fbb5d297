package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.cluster.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The CLI entry without a server: flag errors, help, and the pre-flight check. */
// A hang is a failure, not a stuck build: the engine's promise is that runs end by themselves.
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AtomicBoolean serverStarted = new AtomicBoolean();

    private int run(String... args) {
        Main main = new Main(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                () -> {
                    serverStarted.set(true);
                    throw new IllegalStateException("no server in this test");
                },
                false);
        return main.run(args);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aBadFlagPrintsOneLineNamingFlagRuleAndValueWithTheHelpHintAndExitsTwo() {
        assertEquals(2, run("-t", "0", "-s", "20000"));
        assertEquals("-t/--threads must be an integer in 1..1024, got 0 (--help lists the options)\n", err());
        assertFalse(err().contains("Exception"), err());
        assertFalse(err().contains("\tat "), err());
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertFalse(serverStarted.get(), "nothing starts on a bad command line");
    }

    @Test
    void unknownAndMissingFlagsAlsoExitTwo() {
        assertEquals(2, run("-t", "32", "-s", "20000", "--bogus"));
        assertTrue(err().startsWith("unknown flag --bogus"), err());
        err.reset();
        assertEquals(2, run());
        assertTrue(err().startsWith("-t/--threads is required (an integer in 1..1024)"), err());
    }

    @Test
    void helpPrintsTheUsageToStdoutAndExitsZero() {
        assertEquals(0, run("--help"));
        String usage = out.toString(StandardCharsets.UTF_8);
        assertTrue(usage.contains("-s,--skiers <N>"), usage);
        assertTrue(usage.contains("Exit codes: 0 every request succeeded"), usage);
        assertTrue(usage.replaceAll("\\s+", " ").contains("130 interrupted by Ctrl-C"), usage);
        assertTrue(usage.contains("java -jar client-part1.jar -t 32,64,128,256 -s 20000 -l 40 -m 10"), usage);
        for (String group : List.of("Plan", "Server", "Network", "Output", "CI checks")) {
            assertTrue(usage.contains("\n" + group), group + " in\n" + usage);
        }
        assertTrue(
                usage.indexOf("-t,--threads") < usage.indexOf("\nServer")
                        && usage.indexOf("--threshold") > usage.indexOf("\nCI checks"),
                "each flag under its group\n" + usage);
        assertEquals("", err());
    }

    @Test
    void anUnreachableServerIsOneLineBeforeAnyPhaseAndExitsOne() throws Exception {
        int port = FreePorts.next();
        assertEquals(1, run("-t", "4", "-s", "100", "-i", "127.0.0.1:" + port, "--connect-timeout-ms", "500"));
        String[] lines = err().split("\\R");
        assertEquals(1, lines.length, err());
        assertTrue(
                lines[0].startsWith("cannot reach server at http://127.0.0.1:" + port + "/liftride: ConnectException"),
                lines[0]);
        assertFalse(out.toString(StandardCharsets.UTF_8).contains("Plan"), "no phase may start");
    }

    @Test
    void aShardThatComesUpAfterItsStartAtRefusesInOneLineBeforeAnythingStarts() {
        assertEquals(2, run("-t", "4", "-s", "100", "--start-at", "2020-01-01T00:00:00Z"));
        String[] lines = err().split("\\R");
        assertEquals(1, lines.length, err());
        assertTrue(lines[0].startsWith("--start-at 2020-01-01T00:00:00Z passed "), lines[0]);
        assertTrue(lines[0].endsWith(" s ago (more than the 5 s allowed): this shard does not start late and alone"));
        assertFalse(serverStarted.get(), "a late shard starts nothing");
    }

    @Test
    void anEmbeddedServerThatCannotStartIsReportedInOneLine() {
        assertEquals(1, run("-t", "4", "-s", "100"));
        assertTrue(serverStarted.get());
        assertEquals(
                "cannot start the embedded server: java.lang.IllegalStateException: no server in this test",
                err().strip());
    }

    @Test
    void aPercentileThresholdIsABadFlagForClientPart1SayingWhy() {
        assertEquals(2, run("-t", "4", "-s", "100", "--threshold", "mean<5ms", "--threshold", "p99<5ms"));
        String[] lines = err().split("\\R");
        assertEquals(
                "--threshold p99<5ms cannot be checked: client-part1 measures no percentiles or maximum (only mean,"
                        + " failed, throughput); use client-part2 (--help lists the options)",
                lines[0]);
        assertFalse(serverStarted.get(), "nothing starts on a bad command line");
        err.reset();
        assertEquals(2, run("-t", "4", "-s", "100", "--threshold", "intended.p99<5ms"));
        assertTrue(err().startsWith("--threshold intended.p99<5ms cannot be checked"), err());
    }

    @Test
    void theUsageDocumentsExitCodeThree() {
        assertEquals(0, run("--help"));
        String usage = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " "); // unwrapped
        assertTrue(usage.contains("3 every request succeeded but a --threshold failed"), usage);
        assertTrue(usage.contains("--threshold <EXPR>"), usage);
        assertTrue(usage.contains("--summary-json <FILE>"), usage);
        assertTrue(usage.contains("--quiet"), usage);
    }
}
