package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.report.MarkdownReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk fills up mid-run, for real: client-part2 runs as its own JVM under a file-size limit
 * ({@code ulimit -f}, so the CSV's writes fail with "File too large" once it reaches 512 KiB, as they
 * would with ENOSPC) on a plan of minutes. It must stop the run at once, print the partial account and
 * the writer's error, still write its statistics and report, and exit 1.
 */
// A hang is a failure, not a stuck build.
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CsvWriterFailureIT {

    @TempDir
    Path work;

    @Test
    void aFullDiskMidRunStopsTheRunWithThePartialAccountAndTheWritersErrorAndExits1() throws Exception {
        Path out = work.resolve("out");
        int limitKib = 512;
        // bash's ulimit -f counts KiB; 1.8M requests: minutes of work, unless the run stops when the CSV cannot grow
        List<String> limited = List.of("bash", "-c", "ulimit -f " + limitKib + " && exec \"$@\"", "bash");
        try (ChildClient client = ChildClient.start(
                work, limited, "-t", "16", "-s", "100000", "-m", "20", "--baseline", "0", "--out", out.toString())) {
            boolean exited = client.waitFor(150, TimeUnit.SECONDS);
            String printed = client.printed();
            assertTrue(exited, "the run stops when the CSV cannot be written\n" + printed);
            assertEquals(1, client.process().exitValue(), printed);
            assertTrue(
                    printed.contains("PROBLEM (instrumentation): the CSV writer stopped: java.io.IOException: "
                            + "File too large; stopping the run"),
                    printed);
            assertTrue(printed.contains("STOPPED before the end: partial account"), printed);
            assertTrue(printed.contains("CSV write failed: java.io.IOException: File too large"), printed);
            assertTrue(printed.contains("MISMATCH"), "rows written != attempts made is said\n" + printed);
            String report = Files.readString(out.resolve(MarkdownReport.FILE));
            assertTrue(report.contains("File too large"), report);
            assertTrue(Files.size(out.resolve("t16").resolve(CsvRows.FILE)) <= limitKib * 1024L);
        }
    }
}
