package io.upic.liftride.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.Progress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress displays: the ETA, the plain lines for a log, and which display a run gets. */
class ProgressLogTest {

    private static final long S = 1_000_000_000L;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private static Progress at(long seconds, long done, long planned, boolean finished) {
        return new Progress("peak", 2, 3, done, planned, 0, 1_000, seconds * S, finished, Double.NaN);
    }

    private String[] lines() {
        String s = bytes.toString(StandardCharsets.UTF_8);
        return s.isEmpty() ? new String[0] : s.split("\\R");
    }

    @Test
    void etaIsTheRequestsLeftAtTheRateOfTheLastTenSeconds() {
        Eta eta = new Eta();
        assertEquals(-1, eta.update(at(0, 0, 100_000, false)), "no rate yet");
        assertEquals(90 * S, eta.update(at(1, 1_000, 91_000, false)));
        // the rate changes: 20 s at 1,000/s, then 10 s at 4,000/s; the window sees only the fast part
        Eta e2 = new Eta();
        long done = 0;
        for (int s = 0; s <= 20; s++) {
            e2.update(at(s, done, 200_000, false));
            done += 1_000;
        }
        done -= 1_000;
        long left = 0;
        for (int s = 21; s <= 30; s++) {
            done += 4_000;
            left = e2.update(at(s, done, 200_000, false));
        }
        assertEquals((200_000 - done) / 4_000 * S, left, S / 100);
    }

    @Test
    void etaTextReadsInSecondsMinutesOrHours() {
        assertEquals("ETA ?", Eta.text(-1));
        assertEquals("ETA 0 s", Eta.text(0));
        assertEquals("ETA 42 s", Eta.text(41_500_000_000L));
        assertEquals("ETA 3m 05s", Eta.text(185 * S));
        assertEquals("ETA 1h 02m", Eta.text(3_720 * S));
    }

    @Test
    void theLineOnATerminalCarriesTheEta() {
        ProgressPrinter p = new ProgressPrinter(err);
        p.onProgress(at(1, 1_000, 11_000, false));
        p.onProgress(at(2, 2_000, 11_000, false));
        String s = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(s.contains("ETA 9 s"), s);
        assertFalse(s.contains(System.lineSeparator()), "rewritten in place");
    }

    @Test
    void aLogGetsOnePlainLineEveryTenSecondsAndAClosingLine() {
        ProgressLog log = new ProgressLog(err);
        for (int s = 1; s <= 25; s++) {
            log.onProgress(at(s, s * 1_000L, 30_000, false));
        }
        log.onProgress(at(26, 30_000, 30_000, true));
        String[] lines = lines();
        assertEquals(3, lines.length, String.join("\n", lines));
        assertTrue(lines[0].startsWith("[peak 2/3] 10,000/30,000 (33.3%)"), lines[0]);
        assertTrue(lines[0].endsWith("ETA 20 s"), lines[0]);
        assertTrue(lines[1].startsWith("[peak 2/3] 20,000/30,000"), lines[1]);
        assertTrue(lines[2].endsWith("done"), lines[2]);
        assertFalse(bytes.toString(StandardCharsets.UTF_8).contains("\r"), "no carriage return in a log");
    }

    @Test
    void aRunShorterThanTheIntervalPrintsNothing() {
        ProgressLog log = new ProgressLog(err);
        for (int s = 1; s <= 9; s++) {
            log.onProgress(at(s, s * 100L, 1_000, false));
        }
        log.onProgress(at(9, 1_000, 1_000, true));
        assertEquals(0, lines().length);
    }

    @Test
    void aLateSnapshotPrintsOnceAndTheNextLineKeepsTheSchedule() {
        ProgressLog log = new ProgressLog(err);
        log.onProgress(at(23, 100, 1_000, false)); // the ticker was late: one line, not two
        log.onProgress(at(29, 200, 1_000, false));
        log.onProgress(at(30, 300, 1_000, false));
        assertEquals(2, lines().length);
    }

    @Test
    void eachRunOfASweepStartsItsOwnSchedule() {
        ProgressLog log = new ProgressLog(err);
        log.onProgress(at(10, 100, 1_000, false));
        log.onProgress(at(12, 1_000, 1_000, true));
        log.onProgress(at(5, 100, 1_000, false)); // the next run's clock
        log.onProgress(at(10, 500, 1_000, false));
        assertEquals(3, lines().length);
    }

    @Test
    void quietMeansNoDisplayATerminalTheLineAndALogThePlainLines() {
        assertNull(ProgressPrinter.forRun(true, true, err));
        assertNull(ProgressPrinter.forRun(true, false, err));
        assertInstanceOf(ProgressPrinter.class, ProgressPrinter.forRun(false, true, err));
        assertInstanceOf(ProgressLog.class, ProgressPrinter.forRun(false, false, err));
    }
}
