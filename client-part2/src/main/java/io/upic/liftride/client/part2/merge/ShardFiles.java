package io.upic.liftride.client.part2.merge;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.report.HdrLog;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The files of a run folder that a merge reads, beside {@code latency.hlog} ({@link HdrLog}):
 * {@value #MERGE_INPUT} ({@link ShardRecord} as JSON) and {@value #PER_SECOND_LOG} (one histogram per second of
 * the run, absolute timestamps, so HdrHistogram's HistogramLogAnalyzer plots it as is). Static and thread-safe.
 */
public final class ShardFiles {

    public static final String MERGE_INPUT = "merge-input.json";
    public static final String PER_SECOND_LOG = "latency-per-second.hlog";
    /** The tag of the open model's latencies from the intended send, in both logs. */
    public static final String INTENDED = HdrLog.INTENDED;

    private static final Gson GSON =
            new GsonBuilder().setPrettyPrinting().serializeNulls().create();

    private ShardFiles() {}

    /** Writes {@value #MERGE_INPUT} and {@value #PER_SECOND_LOG} into {@code dir}. */
    public static void write(Path dir, ShardRecord record, TimeBuckets seconds) throws IOException {
        Files.writeString(dir.resolve(MERGE_INPUT), GSON.toJson(record) + "\n", StandardCharsets.UTF_8);
        writePerSecond(dir.resolve(PER_SECOND_LOG), record.seconds().originEpochMillis(), seconds, record.plan());
    }

    /**
     * One interval per time bucket that has attempts: [origin + i w, origin + (i + 1) w), timestamps in epoch
     * seconds; in the open model also each bucket's latencies from the intended send, tagged {@value #INTENDED}.
     */
    static void writePerSecond(Path file, long originEpochMillis, TimeBuckets seconds, String plan) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
                PrintStream ps = new PrintStream(raw, false, StandardCharsets.US_ASCII)) {
            HistogramLogWriter w = new HistogramLogWriter(ps);
            w.outputComment("LiftRide client-part2: POST latencies in microseconds per " + seconds.bucketMillis()
                    + " ms of completion (max column in ms), plan " + plan + "; counts per bucket are in "
                    + MERGE_INPUT);
            w.outputLogFormatVersion();
            w.outputStartTime(originEpochMillis);
            w.outputBaseTime(0);
            w.outputLegend();
            double width = seconds.bucketMillis() / 1e3;
            for (int s = 0; s < seconds.count(); s++) {
                double start = (originEpochMillis + s * seconds.bucketMillis()) / 1e3;
                Histogram h = seconds.histogram(s);
                if (h != null && h.getTotalCount() > 0) {
                    w.outputIntervalHistogram(start, start + width, h, 1000.0);
                }
                Histogram intended = seconds.fromIntendedHistogram(s);
                if (intended != null && intended.getTotalCount() > 0) {
                    Histogram copy = intended.copy();
                    copy.setTag(INTENDED);
                    w.outputIntervalHistogram(start, start + width, copy, 1000.0);
                }
            }
            ps.flush();
            if (ps.checkError()) {
                throw new IOException("could not write " + file);
            }
        }
    }

    /** The record in {@code dir}. */
    public static ShardRecord readRecord(Path dir) throws IOException {
        Path file = dir.resolve(MERGE_INPUT);
        try {
            ShardRecord r = GSON.fromJson(Files.readString(file, StandardCharsets.UTF_8), ShardRecord.class);
            if (r == null) {
                throw new IOException(file + " is empty");
            }
            if (r.format() != ShardRecord.FORMAT) {
                throw new IOException(file + " has format " + r.format() + ", this merge reads " + ShardRecord.FORMAT);
            }
            return r;
        } catch (JsonParseException | NullPointerException e) {
            throw new IOException(file + " is not a merge input (" + e.getMessage() + ")", e);
        }
    }

    /** Every histogram of a log by tag ("" for untagged), added up if a tag repeats. */
    public static Map<String, Histogram> readByTag(Path file) throws IOException {
        Map<String, Histogram> byTag = new HashMap<>();
        try {
            HistogramLogReader reader = new HistogramLogReader(file.toFile());
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                String tag = e.getTag() == null ? "" : e.getTag();
                byTag.computeIfAbsent(tag, t -> LatencyHistograms.forMerge()).add((Histogram) e);
            }
        } catch (FileNotFoundException e) {
            throw new IOException("missing " + file, e);
        } catch (RuntimeException e) {
            throw new IOException(file + " is not a readable histogram log (" + e + ")", e);
        }
        return byTag;
    }

    /**
     * The histograms of a per-bucket log tagged {@code tag} ("" for untagged) by their start on the wall clock
     * (epoch ms).
     */
    public static Map<Long, Histogram> readPerSecond(Path file, String tag) throws IOException {
        Map<Long, Histogram> byStart = new HashMap<>();
        try {
            HistogramLogReader reader = new HistogramLogReader(file.toFile());
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                Histogram h = (Histogram) e;
                if (!tag.equals(h.getTag() == null ? "" : h.getTag())) {
                    continue;
                }
                byStart.merge(h.getStartTimeStamp(), h, (a, b) -> {
                    a.add(b);
                    return a;
                });
            }
        } catch (FileNotFoundException e) {
            throw new IOException("missing " + file, e);
        } catch (RuntimeException e) {
            throw new IOException(file + " is not a readable histogram log (" + e + ")", e);
        }
        return byStart;
    }
}
