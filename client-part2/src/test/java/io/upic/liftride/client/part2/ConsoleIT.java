package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.EmbeddedTarget;
import io.upic.liftride.client.report.BriefSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console of client-part2's default account against the embedded server, baseline included: a sweep of the
 * standard sweep's shape (4 thread counts) within 100 lines, each run within its 15, no line over 120 columns, the
 * last line naming report.html, nothing of the server's own.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConsoleIT {

    @TempDir
    Path work;

    @Test
    void aSweepOfFourThreadCountsPrintsAtMostAHundredNarrowLinesEndingWithTheReport() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new Main(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        EmbeddedTarget::start,
                        false,
                        work)
                .run(new String[] {"-t", "4,8,12,16", "-s", "400", "-l", "10", "-m", "2", "--baseline", "200"});
        String printed = out.toString(StandardCharsets.UTF_8);
        String all = printed + "\n--- stderr ---\n" + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, all);
        assertEquals("", err.toString(StandardCharsets.UTF_8), "stderr");
        List<String> lines = printed.lines().toList();
        assertTrue(lines.size() <= 100, lines.size() + " lines:\n" + printed);
        for (String line : lines) { // the output folder's path is the user's, not the console's, width
            String text = line.replace(work.toString(), "");
            assertTrue(text.length() <= BriefSummary.WIDTH, text.length() + " columns: " + line);
        }
        assertTrue(lines.get(lines.size() - 1).matches("Report: .*report\\.html"), printed);
        assertTrue(printed.contains("Baseline in "), "the baseline in a line\n" + printed);
        for (int t : new int[] {4, 8, 12, 16}) {
            int from = printed.indexOf("\nRun -t " + t + ",");
            int to = printed.indexOf("\n\n", from + 1);
            assertTrue(from >= 0 && to > from, "run -t " + t + "\n" + printed);
            long runLines = printed.substring(from + 1, to).lines().count();
            assertTrue(runLines <= BriefSummary.MAX_RUN_LINES, runLines + " lines for -t " + t + "\n" + printed);
        }
        assertFalse(printed.contains("LiftRide"), "the embedded server's lines are --verbose's\n" + printed);
        assertFalse(printed.contains(" first "), "no first-attempt rows\n" + printed);
    }
}
