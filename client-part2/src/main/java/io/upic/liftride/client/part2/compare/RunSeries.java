package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.part2.html.ChartSpec;
import io.upic.liftride.client.part2.merge.ShardFiles;
import io.upic.liftride.client.part2.report.HdrLog;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * One run's data for the comparison's charts, read back from the histogram logs its folder holds beside
 * {@code summary.json} (a client-part2 run folder or a merged one): the whole run's latency histogram, the
 * phases' time windows, and per second of completion the median, the p99 and the count. Immutable by convention
 * (the arrays and the histogram are not copied).
 *
 * @param seconds   whole seconds since the run started, ascending, each with attempts
 * @param p50       the median latency (ms) of each second
 * @param p99       the 99th percentile (ms) of each second
 * @param perSecond attempts completed in each second
 * @param all       every attempt's latency (µs)
 * @param phases    each phase's window, seconds since the run started
 */
public record RunSeries(
        double[] seconds, double[] p50, double[] p99, double[] perSecond, Histogram all, List<ChartSpec.Band> phases) {

    /**
     * The series of the run whose {@code summary.json} is {@code summary}.
     *
     * @throws IOException when its folder has no readable {@value HdrLog#FILE} and
     *     {@value ShardFiles#PER_SECOND_LOG} (a summary copied alone, or written by client-part1), saying which
     */
    public static RunSeries read(Path summary) throws IOException {
        Path dir = summary.toAbsolutePath().getParent();
        Path log = dir.resolve(HdrLog.FILE);
        Path perSecond = dir.resolve(ShardFiles.PER_SECOND_LOG);
        for (Path f : List.of(log, perSecond)) {
            if (!Files.isRegularFile(f)) {
                throw new IOException("no " + f.getFileName() + " beside " + summary);
            }
        }
        Histogram all = null;
        long origin = 0;
        List<ChartSpec.Band> phases = new ArrayList<>();
        try {
            HistogramLogReader reader = new HistogramLogReader(log.toFile());
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                String tag = e.getTag();
                if (tag == null && all == null) {
                    all = (Histogram) e;
                    origin = e.getStartTimeStamp();
                } else if (tag != null
                        && all != null
                        && !tag.equals(HdrLog.FIRST)
                        && !tag.endsWith("." + HdrLog.FIRST)) {
                    phases.add(new ChartSpec.Band(
                            tag, (e.getStartTimeStamp() - origin) / 1e3, (e.getEndTimeStamp() - origin) / 1e3, ""));
                }
            }
        } catch (FileNotFoundException | RuntimeException e) {
            throw new IOException(log + " is not a readable histogram log (" + e + ")", e);
        }
        if (all == null) {
            throw new IOException(log + " holds no whole-run histogram");
        }
        return perSecond(ShardFiles.readPerSecond(perSecond), origin, all, phases);
    }

    private static RunSeries perSecond(
            Map<Long, Histogram> byStart, long origin, Histogram all, List<ChartSpec.Band> phases) {
        TreeMap<Long, Histogram> sorted = new TreeMap<>(byStart);
        int n = sorted.size();
        double[] x = new double[n], p50 = new double[n], p99 = new double[n], count = new double[n];
        int i = 0;
        for (Map.Entry<Long, Histogram> s : sorted.entrySet()) {
            Histogram h = s.getValue();
            x[i] = Math.round((s.getKey() - origin) / 1e3);
            p50[i] = h.getValueAtPercentile(50) / 1e3;
            p99[i] = h.getValueAtPercentile(99) / 1e3;
            count[i] = h.getTotalCount();
            i++;
        }
        return new RunSeries(x, p50, p99, count, all, phases);
    }

    /** The last second with attempts, or -1 when there is none. */
    public int lastSecond() {
        return seconds.length == 0 ? -1 : (int) seconds[seconds.length - 1];
    }

    /** {@code values} placed at their seconds on an axis of {@code 0..length-1} seconds, NaN where none. */
    public double[] onAxis(double[] values, int length) {
        double[] y = new double[length];
        java.util.Arrays.fill(y, Double.NaN);
        for (int i = 0; i < seconds.length; i++) {
            int s = (int) seconds[i];
            if (s >= 0 && s < length) {
                y[s] = values[i];
            }
        }
        return y;
    }
}
