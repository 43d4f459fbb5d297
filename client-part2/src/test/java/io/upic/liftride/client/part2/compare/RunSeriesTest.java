package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.part2.html.ChartSpec;
import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.part2.report.HdrLog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunSeriesTest {

    private static final long ORIGIN_MS = 1_700_000_000_000L;

    @TempDir
    Path dir;

    /** A histogram of {@code n} values of {@code micros}. */
    private static Histogram of(long micros, int n, String tag) {
        Histogram h = LatencyHistograms.forMerge();
        h.recordValueWithCount(micros, n);
        h.setTag(tag);
        return h;
    }

    private void log(Path file, double[][] intervals, Histogram... histograms) throws IOException {
        try (PrintStream ps = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.US_ASCII)) {
            HistogramLogWriter w = new HistogramLogWriter(ps);
            w.outputLogFormatVersion();
            w.outputStartTime(ORIGIN_MS);
            w.outputBaseTime(0);
            w.outputLegend();
            for (int i = 0; i < histograms.length; i++) {
                double origin = ORIGIN_MS / 1e3;
                w.outputIntervalHistogram(origin + intervals[i][0], origin + intervals[i][1], histograms[i], 1000.0);
            }
        }
    }

    @Test
    void theLogsBesideASummaryGiveItsBucketsPhasesAndHistogram() throws Exception {
        log(
                dir.resolve(HdrLog.FILE),
                new double[][] {{0, 3.5}, {0, 3.5}, {0, 1.2}, {1.0, 3.5}, {1.0, 3.5}, {0, 3.5}},
                of(2_000, 30, null),
                of(2_000, 30, HdrLog.FIRST),
                of(1_000, 10, "startup"),
                of(3_000, 20, "peak"),
                of(3_000, 20, HdrLog.firstTag("peak")),
                of(9_000, 30, HdrLog.INTENDED));
        log(
                dir.resolve(HdrLog.PER_BUCKET_FILE),
                new double[][] {{0, 0.1}, {0.2, 0.3}, {0.2, 0.3}},
                of(1_000, 10, null),
                of(5_000, 20, null),
                of(9_000, 20, HdrLog.INTENDED));
        RunSeries s = RunSeries.read(dir.resolve("summary.json"));
        assertEquals(0.1, s.widthSeconds(), 1e-9);
        assertArrayEquals(new double[] {100, 0, 200}, s.perSecond(), 1e-9, "completions per second, not per bucket");
        assertEquals(1.0, s.p50()[0], 0.01);
        assertTrue(Double.isNaN(s.p50()[1]), "a bucket without attempts is a gap");
        assertEquals(5.0, s.p99()[2], 0.01, "the intended-send histogram is not mixed in");
        assertEquals(30, s.all().getTotalCount());
        assertEquals(30, s.intended().getTotalCount(), "the whole run's latency from the intended send");
        assertEquals(9.0, s.intended().getValueAtPercentile(50) / 1e3, 0.01);
        assertEquals(
                List.of(new ChartSpec.Band("startup", 0, 1.2, ""), new ChartSpec.Band("peak", 1.0, 3.5, "")),
                s.phases(),
                "each phase's window; first-attempt and intended tags are no phase");
        assertEquals(0.3, s.endSeconds(), 1e-9);
    }

    @Test
    void aCoarserGridTakesTheBucketEachPointFallsIn() throws Exception {
        RunSeries s =
                new RunSeries(0.1, new double[] {1, 2, 3, 4, 5}, new double[5], new double[5], null, null, List.of());
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, Double.NaN}, s.onGrid(s.p50(), 0.1, 6));
        assertArrayEquals(new double[] {1, 3, 5}, s.onGrid(s.p50(), 0.2, 3));
    }

    @Test
    void aSummaryWithoutItsLogsSaysWhichIsMissing() {
        IOException e = assertThrows(IOException.class, () -> RunSeries.read(dir.resolve("summary.json")));
        assertTrue(e.getMessage().startsWith("no latency.hlog beside "), e.getMessage());
    }
}
