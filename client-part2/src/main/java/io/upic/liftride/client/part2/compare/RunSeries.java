package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.part2.html.ChartSpec;
import io.upic.liftride.client.part2.report.HdrLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One run's data for the comparison's charts, read back from the histogram logs its folder holds beside
 * {@code summary.json} (a client-part2 run folder or a merged one): the whole run's latency histogram, the
 * phases' time windows, and per time bucket of completion (as wide as the run wrote them: 100 ms for a short run,
 * 1 s past a minute) the median, the p99 and the completions per second. Immutable by convention (the arrays and
 * the histogram are not copied).
 *
 * @param widthSeconds the buckets' width
 * @param p50          each bucket's median latency (ms), bucket {@code i} from {@code i * widthSeconds}; NaN when
 *                     it has no attempt
 * @param p99          each bucket's 99th percentile (ms), likewise
 * @param perSecond    attempts completed per second in each bucket (0 when none)
 * @param all          every attempt's latency (µs)
 * @param intended     open model: every attempt's latency from its intended send (µs); null in the closed model
 * @param phases       each phase's window, seconds since the run started
 */
public record RunSeries(
        double widthSeconds,
        double[] p50,
        double[] p99,
        double[] perSecond,
        Histogram all,
        Histogram intended,
        List<ChartSpec.Band> phases) {

    /**
     * The series of the run whose {@code summary.json} is {@code summary}.
     *
     * @throws IOException when its folder has no readable {@value HdrLog#FILE} and
     *     {@value ShardFiles#PER_SECOND_LOG} (a summary copied alone, or written by client-part1), saying which
     */
    public static RunSeries read(Path summary) throws IOException {
        Path dir = summary.toAbsolutePath().getParent();
        Path log = dir.resolve(HdrLog.FILE);
        Path perBucket = dir.resolve(HdrLog.PER_BUCKET_FILE);
        for (Path f : List.of(log, perBucket)) {
            if (!Files.isRegularFile(f)) {
                throw new IOException("no " + f.getFileName() + " beside " + summary);
            }
        }
        Histogram all = null;
        Histogram intended = null;
        List<ChartSpec.Band> phases = new ArrayList<>();
        for (Histogram h : HdrLog.read(log)) {
            String tag = h.getTag();
            if (tag == null && all == null) {
                all = h;
            } else if (HdrLog.INTENDED.equals(tag) && intended == null) {
                intended = h;
            } else if (tag != null && all != null && isPhase(tag)) {
                long origin = all.getStartTimeStamp();
                phases.add(new ChartSpec.Band(
                        tag, (h.getStartTimeStamp() - origin) / 1e3, (h.getEndTimeStamp() - origin) / 1e3, ""));
            }
        }
        if (all == null) {
            throw new IOException(log + " holds no whole-run histogram");
        }
        Map<Long, Histogram> byStart = new TreeMap<>();
        for (Histogram h : HdrLog.read(perBucket)) {
            if (h.getTag() == null) {
                byStart.merge(h.getStartTimeStamp(), h, (a, b) -> {
                    a.add(b);
                    return a;
                });
            }
        }
        return buckets(byStart, all, intended, phases);
    }

    /** A phase's tag: neither the whole run's first attempts or intended send, nor a phase's, nor an operation's. */
    private static boolean isPhase(String tag) {
        return !tag.equals(HdrLog.FIRST)
                && !tag.startsWith(HdrLog.OPERATION_PREFIX)
                && !tag.equals(HdrLog.INTENDED)
                && !tag.endsWith("." + HdrLog.FIRST)
                && !tag.endsWith("." + HdrLog.INTENDED);
    }

    private static RunSeries buckets(
            Map<Long, Histogram> byStart, Histogram all, Histogram intended, List<ChartSpec.Band> phases) {
        long origin = all.getStartTimeStamp();
        TreeMap<Long, Histogram> sorted = new TreeMap<>(byStart);
        long widthMillis = sorted.isEmpty()
                ? 1000
                : Math.max(1, sorted.firstEntry().getValue().getEndTimeStamp() - sorted.firstKey());
        int n = sorted.isEmpty() ? 0 : (int) ((sorted.lastKey() - origin) / widthMillis) + 1;
        double[] p50 = nans(n), p99 = nans(n), perSecond = new double[n];
        for (Map.Entry<Long, Histogram> b : sorted.entrySet()) {
            int i = (int) Math.round((double) (b.getKey() - origin) / widthMillis);
            if (i < 0 || i >= n) {
                continue;
            }
            Histogram h = b.getValue();
            p50[i] = h.getValueAtPercentile(50) / 1e3;
            p99[i] = h.getValueAtPercentile(99) / 1e3;
            perSecond[i] = h.getTotalCount() * 1000.0 / widthMillis;
        }
        return new RunSeries(widthMillis / 1e3, p50, p99, perSecond, all, intended, phases);
    }

    private static double[] nans(int n) {
        double[] a = new double[n];
        Arrays.fill(a, Double.NaN);
        return a;
    }

    /** Where the last bucket ends, seconds since the run started. */
    public double endSeconds() {
        return p50.length * widthSeconds;
    }

    /**
     * {@code values} (one of this record's arrays) on a grid of {@code n} points {@code step} seconds apart: each
     * point takes the bucket it falls in, NaN past the last (a grid as fine as the buckets takes each bucket once).
     */
    public double[] onGrid(double[] values, double step, int n) {
        double[] y = nans(n);
        for (int k = 0; k < n; k++) {
            int i = (int) Math.floor(k * step / widthSeconds + 1e-9);
            if (i < values.length) {
                y[k] = values[i];
            }
        }
        return y;
    }
}
