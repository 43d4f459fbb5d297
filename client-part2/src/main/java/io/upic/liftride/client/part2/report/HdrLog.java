package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes a run's merged histograms in HdrHistogram's log format ({@link HistogramLogWriter}), in
 * <b>microseconds</b>, untagged for the whole run and tagged per scope (docs/reports.md lists the tags), with
 * epoch timestamps so shards' logs line up on one clock. Static and thread-safe.
 */
public final class HdrLog {

    public static final String FILE = "latency.hlog";
    /** One histogram per time bucket of completion, absolute timestamps (HistogramLogAnalyzer plots it as is). */
    public static final String PER_BUCKET_FILE = "latency-per-second.hlog";
    /** The tag of the whole run's first attempts. */
    public static final String FIRST = "first";
    /** The tag of the whole run's latencies from the intended send (the open model, --rate). */
    public static final String INTENDED = "intended";
    /** The tag of a time bucket's failed attempts in {@value #PER_BUCKET_FILE}. */
    public static final String FAILED = "failed";

    /** What a tag of one operation's attempts starts with: {@code op.getSkierDayVertical}. */
    public static final String OPERATION_PREFIX = "op.";

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
            for (var op : new TreeMap<>(metrics.operations()).entrySet()) { // in the contract's order
                w.outputIntervalHistogram(
                        origin, origin + wall, tagged(op.getValue().histogram(), operationTag(op.getKey())), 1000.0);
            }
            ps.flush();
            if (ps.checkError()) {
                throw new IOException("could not write " + file);
            }
        }
    }

    /**
     * One interval per time bucket that has attempts, with its failed attempts tagged {@value #FAILED} and, in the
     * open model, its latencies from the intended send tagged {@value #INTENDED}.
     */
    public static void writePerBucket(Path file, long originEpochMillis, TimeBuckets buckets, String plan)
            throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
                PrintStream ps = new PrintStream(raw, false, StandardCharsets.US_ASCII)) {
            HistogramLogWriter w = new HistogramLogWriter(ps);
            w.outputComment("LiftRide client-part2: POST latencies in microseconds per " + buckets.bucketMillis()
                    + " ms of completion (max column in ms), plan " + plan);
            w.outputLogFormatVersion();
            w.outputStartTime(originEpochMillis);
            w.outputBaseTime(0);
            w.outputLegend();
            double width = buckets.bucketMillis() / 1e3;
            for (int s = 0; s < buckets.count(); s++) {
                double start = (originEpochMillis + s * buckets.bucketMillis()) / 1e3;
                Histogram h = buckets.histogram(s);
                if (h != null && h.getTotalCount() > 0) {
                    w.outputIntervalHistogram(start, start + width, h, 1000.0);
                }
                Histogram failed = buckets.failedHistogram(s);
                if (failed != null && failed.getTotalCount() > 0) {
                    w.outputIntervalHistogram(start, start + width, tagged(failed, FAILED), 1000.0);
                }
                Histogram intended = buckets.fromIntendedHistogram(s);
                if (intended != null && intended.getTotalCount() > 0) {
                    w.outputIntervalHistogram(start, start + width, tagged(intended, INTENDED), 1000.0);
                }
            }
            ps.flush();
            if (ps.checkError()) {
                throw new IOException("could not write " + file);
            }
        }
    }

    /**
     * Every histogram of a log in file order, with its tag and its interval's timestamps (epoch ms).
     *
     * @throws IOException naming the file when it is missing or not a histogram log
     */
    public static List<Histogram> read(Path file) throws IOException {
        List<Histogram> all = new ArrayList<>();
        try {
            HistogramLogReader reader = new HistogramLogReader(file.toFile());
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                all.add((Histogram) e);
            }
        } catch (FileNotFoundException e) {
            throw new IOException("missing " + file, e);
        } catch (RuntimeException e) {
            throw new IOException(file + " is not a readable histogram log (" + e + ")", e);
        }
        return all;
    }

    /** The histograms of a log by tag ("" for untagged), the first of each tag. */
    public static Map<String, Histogram> readByTag(Path file) throws IOException {
        Map<String, Histogram> byTag = new HashMap<>();
        read(file).forEach(h -> byTag.putIfAbsent(h.getTag() == null ? "" : h.getTag(), h));
        return byTag;
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

    /** The tag of one operation's attempts. */
    public static String operationTag(Operation op) {
        return OPERATION_PREFIX + op.operationId();
    }

    /** A tag without the delimiters the log format forbids. */
    public static String tag(String name) {
        return name.replaceAll("[,\\s]", "_");
    }
}
