package io.upic.liftride.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.RunHooks;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.threshold.Threshold;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exit code thresholds give, and what happens when the summary cannot be written. */
class RunVerdictTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** 1,000 requests, all successful, 2 s: 500 req/s, mean 1 ms; judged against {@code thresholds}. */
    private static RunReport judged(String... thresholds) {
        RunResult r = Fixtures.run(Fixtures.phase()
                        .requests(new Requests(1_000, 1_000, 0, 0, 0, 1_000))
                        .latencyNanosSum(1_000_000_000L)
                        .build())
                .wallNanos(2_000_000_000L)
                .build();
        RunReport report = Fixtures.report(r).build();
        report = report.toBuilder()
                .config(report.config()
                        .withChecks(report.config()
                                .checks()
                                .withThresholds(List.of(thresholds).stream()
                                        .map(Threshold::parse)
                                        .toList())))
                .build();
        return RunVerdict.judge(report, RunHooks.NONE.metrics(report), RunHooks.NONE.clientName(), null);
    }

    private int conclude(Path file, int code, RunReport... reports) {
        return RunVerdict.conclude(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                file,
                List.of(reports),
                code);
    }

    @Test
    void passingThresholdsKeepZeroAndAFailingOneGivesThree() {
        assertEquals(0, conclude(null, 0, judged("throughput>=500", "mean<=1ms")));
        assertEquals(3, conclude(null, 0, judged("throughput>500")));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("  FAIL  throughput>500  (measured 500.0 req/s)"), printed);
    }

    @Test
    void aRunThatLostRequestsKeepsOneWhateverItsThresholds() {
        assertEquals(1, conclude(null, 1, judged("throughput>500")));
        assertEquals(1, conclude(null, 1, judged("throughput>1")));
    }

    @Test
    void aSweepFailsWhenAnyRunFailsAndNamesTheRun() {
        assertEquals(3, conclude(null, 0, judged("mean<2ms"), judged("mean<0.5ms")));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Thresholds, -t 32: 0 of 1 passed"));
    }

    @Test
    void theSummaryFileIsWrittenAndNamed() throws Exception {
        Path file = dir.resolve("a/b/summary.json");
        assertEquals(0, conclude(file, 0, judged()));
        assertTrue(Files.readString(file).contains("\"schemaVersion\": 1"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Summary: " + file));
    }

    @Test
    void aSummaryThatCannotBeWrittenIsOneLineAndExitOne() throws Exception {
        Path blocker = Files.createFile(dir.resolve("file"));
        Path file = blocker.resolve("summary.json"); // under a regular file: cannot be created
        assertEquals(1, conclude(file, 0, judged()));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.startsWith("cannot write --summary-json " + file + ": "), e);
        assertEquals(1, e.split("\\R").length, e);
        assertEquals(1, conclude(file, 3, judged()));
        assertFalse(out.toString(StandardCharsets.UTF_8).contains("Summary: "));
    }
}
