package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.part2.chart.RunCharts;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.cluster.Poll;
import io.upic.liftride.testkit.Shell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Ctrl-C, as a user gives it in a terminal: client-part2 runs as its own JVM (its own
 * embedded server, no {@code -i}) and gets SIGINT mid-run. Its JVM is then shutting down while it
 * writes the partial run's files, which is what lost the charts; ClientPart2IT's stop through
 * {@code Main.onShutdown()} in a live JVM cannot show that. Every file of a run must be there and
 * non-empty, and the exit code is 130.
 */
// A hang is a failure, not a stuck build.
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CtrlCIT {

    /** What docs/reports.md lists for a run, in the run's folder. */
    private static final List<String> RUN_FILES = List.of(
            CsvRows.FILE,
            HdrLog.FILE,
            RunCharts.LATENCY_OVER_TIME,
            RunCharts.THROUGHPUT_OVER_TIME,
            RunCharts.LATENCY_PERCENTILES);

    @TempDir
    Path work;

    @Test
    void sigintMidRunLeavesEveryOutputFileAndExits130() throws Exception {
        Path out = work.resolve("out");
        // 1.8M requests: minutes of work, so the signal surely lands mid-run
        try (ChildClient client = ChildClient.start(
                work, List.of(), "-t", "16", "-s", "100000", "-m", "20", "--baseline", "0", "--out", out.toString())) {
            Path csv = out.resolve("t16").resolve(CsvRows.FILE);
            Poll.until("a few thousand rows: the run is sending", Duration.ofSeconds(90), () -> {
                assertTrue(client.process().isAlive(), "the client is sending\n" + client.printed());
                return size(csv) >= 200_000;
            });
            // SIGINT ignored (inherited from a parent without job control) would leave the child running on
            assertFalse(
                    Shell.ignores(client.process().pid(), 2),
                    "the child ignores SIGINT: start it with Shell.withDefaultInterrupts");
            Shell.signal(client.process().pid(), "INT"); // ProcessHandle cannot send SIGINT; kill(1) can

            assertTrue(client.waitFor(60, TimeUnit.SECONDS), "exits after the signal\n" + client.printed());
            String printed = client.printed();
            assertEquals(130, client.process().exitValue(), "128 + SIGINT\n" + printed);
            assertTrue(printed.contains("STOPPED before the end: partial account"), printed);
            for (String name : RUN_FILES) {
                assertTrue(size(out.resolve("t16").resolve(name)) > 0, "t16/" + name + " written\n" + printed);
            }
            assertFalse(printed.contains("PROBLEM"), printed);
            String report = Files.readString(out.resolve(MarkdownReport.FILE));
            assertTrue(report.contains("Stopped early"), report);
            for (String name : RUN_FILES) {
                assertTrue(report.contains("t16/" + name), "report.md links t16/" + name);
            }
        }
    }

    private static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : -1;
    }
}
