package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.csv.ChunkWriter;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.report.RunReport;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything client-part2 knows about one finished run: client-part1's account plus the instrumentation's
 * results and files. Immutable.
 *
 * @param charts        the PNGs written (empty if chart drawing failed)
 * @param hlog          the HdrHistogram log, or null if writing it failed
 * @param reportNanos   time after the run to build the statistics, charts and histogram log
 */
public record RunOutput(
        Path dir,
        RunReport report,
        RunMetrics metrics,
        ChunkWriter.Summary csv,
        List<ChartFile> charts,
        Path hlog,
        long reportNanos,
        List<String> problems) {

    public RunOutput {
        charts = List.copyOf(charts);
        problems = List.copyOf(problems);
    }

    /** Attempts the engine made. */
    public long attempts() {
        return report.summary().attempts();
    }

    /** rows written == attempts made, and the file was written without error. */
    public boolean rowsMatch() {
        return csv.complete() && csv.rowsWritten() == attempts();
    }

    /** values in the histograms == attempts made. */
    public boolean histogramsMatch() {
        return metrics.recordedAttempts() == attempts();
    }

    /** Every check of the instrumentation passed. */
    public boolean ok() {
        return rowsMatch() && histogramsMatch() && problems.isEmpty();
    }
}
