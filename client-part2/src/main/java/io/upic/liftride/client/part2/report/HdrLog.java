package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes a run's merged histograms in HdrHistogram's log format ({@link HistogramLogWriter}), so
 * HdrHistogram's own tools (HistogramLogProcessor, HistogramLogAnalyzer, the online plotter) can load
 * them. Values are <b>microseconds</b>; the max column is written in milliseconds. Entries:
 * <ul>
 *   <li>untagged: every attempt of the whole run (what the tools read by default);</li>
 *   <li>{@code Tag=first}: first attempts of the whole run;</li>
 *   <li>{@code Tag=<phase>}: every attempt of one phase (e.g. {@code Tag=peak}), timed from the
 *       phase's start to its end.</li>
 * </ul>
 * Also {@code Tag=<phase>.first} (first attempts of one phase) and, under {@code --rate}, {@code Tag=intended} and
 * {@code Tag=<phase>.intended} (latencies from the intended send), so a merge of shards has every scope.
 * Timestamps are absolute: {@code StartTime} is the run's start and every interval's start and end are seconds
 * since the epoch ({@code BaseTime: 0}), so logs of shards started on different machines line up on one clock.
 * For HistogramLogProcessor use {@code -outputValueUnitRatio 1000} to print milliseconds.
 */
public final class HdrLog {

    public static final String FILE = "latency.hlog";
    /** The tag of the whole run's first attempts. */
    public static final String FIRST = "first";
    /** The tag of the whole run's latencies from the intended send (the open model, --rate). */
    public static final String INTENDED = "intended";

    private HdrLog() {}

    public static void write(Path file, RunResult result, RunMetrics metrics) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
                PrintStream ps = new PrintStream(raw, false, StandardCharsets.US_ASCII)) {
            HistogramLogWriter w = new HistogramLogWriter(ps);
            w.outputComment("LiftRide client-part2: POST latencies in microseconds (max column in ms); plan "
                    + result.planName() + ", " + result.numThreads() + " threads");
            w.outputLogFormatVersion();
            w.outputStartTime(result.startEpochMillis());
            w.outputBaseTime(0);
            w.outputLegend();
            double origin = result.startEpochMillis() / 1e3;
            double wall = result.wallNanos() / 1e9;
            ScopeStats run = metrics.run();
            w.outputIntervalHistogram(origin, origin + wall, tagged(run.allHistogram(), null), 1000.0);
            w.outputIntervalHistogram(origin, origin + wall, tagged(run.firstHistogram(), FIRST), 1000.0);
            if (run.fromIntendedHistogram() != null) {
                w.outputIntervalHistogram(origin, origin + wall, tagged(run.fromIntendedHistogram(), INTENDED), 1000.0);
            }
            for (ScopeStats p : metrics.phases()) {
                if (!p.started()) {
                    continue;
                }
                var phase = result.phases().get(p.phaseIndex());
                double start = origin + (phase.startNanos() - result.startNanos()) / 1e9;
                double end = origin + (phase.endNanos() - result.startNanos()) / 1e9;
                w.outputIntervalHistogram(start, end, tagged(p.allHistogram(), tag(p.name())), 1000.0);
                w.outputIntervalHistogram(start, end, tagged(p.firstHistogram(), firstTag(p.name())), 1000.0);
                if (p.fromIntendedHistogram() != null) {
                    w.outputIntervalHistogram(
                            start, end, tagged(p.fromIntendedHistogram(), intendedTag(p.name())), 1000.0);
                }
            }
            ps.flush();
            if (ps.checkError()) {
                throw new IOException("could not write " + file);
            }
        }
    }

    private static Histogram tagged(Histogram h, String tag) {
        Histogram copy = h.copy();
        copy.setTag(tag);
        return copy;
    }

    /** The tag of a phase's latencies from the intended send (the open model). */
    public static String intendedTag(String phaseName) {
        return tag(phaseName) + "." + INTENDED;
    }

    /** The tag of a phase's first attempts. */
    public static String firstTag(String phaseName) {
        return tag(phaseName) + "." + FIRST;
    }

    /** A tag without the delimiters the log format forbids. */
    public static String tag(String name) {
        return name.replaceAll("[,\\s]", "_");
    }
}
