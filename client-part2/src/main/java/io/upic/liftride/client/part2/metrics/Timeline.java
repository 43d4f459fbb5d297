package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.AttemptCodes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A run's latency and throughput per time bucket (recorded during the run, never read from the CSV) and its
 * phases' windows: the data of the time charts. Seconds from the run's start; NaN for a bucket without
 * attempts. Immutable by convention (arrays not copied).
 *
 * @param bucketSeconds   the buckets' width
 * @param x               each bucket's middle (of the part of it the run covered)
 * @param mean            mean latency (ms) of the attempts that completed in the bucket
 * @param p50             their median (ms, 2 significant digits)
 * @param p90             their p90
 * @param p99             their p99
 * @param max             their maximum
 * @param intendedMean    open model: mean latency from the intended send; null in the closed model
 * @param intendedP99     open model: p99 from the intended send; null in the closed model
 * @param okPerSecond     201s completed per second of the bucket
 * @param failedPerSecond failed attempts per second of the bucket (NaN when none, so they show as points)
 * @param phases          each started phase's window
 * @param activeThreads   per started phase, its mean active workers per bucket; empty for a merge of shards
 * @param failuresByCause failed attempts per second by cause, NaN where none; empty without failures or for a merge
 */
public record Timeline(
        double bucketSeconds,
        double[] x,
        double[] mean,
        double[] p50,
        double[] p90,
        double[] p99,
        double[] max,
        double[] intendedMean,
        double[] intendedP99,
        double[] okPerSecond,
        double[] failedPerSecond,
        List<Window> phases,
        List<Series> activeThreads,
        List<Series> failuresByCause) {

    /** A phase from its start to its end, in seconds since the run's start, and its planned threads. */
    public record Window(String name, double fromSeconds, double toSeconds, int threads) {}

    /** One named value per bucket. */
    public record Series(String name, double[] values) {}

    public Timeline {
        phases = List.copyOf(phases);
        activeThreads = List.copyOf(activeThreads);
        failuresByCause = List.copyOf(failuresByCause);
    }

    /** Points on the time axis. */
    public int size() {
        return x.length;
    }

    /** The timeline of {@code buckets}, cut at the run's wall time. */
    public static Timeline of(TimeBuckets buckets, RunResult result) {
        int n = buckets.count();
        double width = buckets.bucketNanos() / 1e9;
        double wall = result.wallNanos() / 1e9;
        boolean open = buckets.hasFromIntended();
        double[][] v = new double[10][n];
        for (double[] a : v) {
            Arrays.fill(a, Double.NaN);
        }
        for (int i = 0; i < n; i++) {
            // the last bucket usually covers part of its width: divide by the part the run covered
            double length = bucketLength(i, width, wall);
            v[0][i] = i * width + length / 2;
            v[8][i] = buckets.successful(i) / length;
            if (buckets.failed(i) > 0) {
                v[9][i] = buckets.failed(i) / length;
            }
            if (buckets.attempts(i) == 0) {
                continue;
            }
            v[1][i] = buckets.meanMillis(i);
            v[2][i] = buckets.percentileMillis(i, 50);
            v[3][i] = buckets.percentileMillis(i, 90);
            v[4][i] = buckets.percentileMillis(i, 99);
            v[5][i] = buckets.percentileMillis(i, 100);
            if (open) {
                v[6][i] = buckets.fromIntendedMeanMillis(i);
                v[7][i] = buckets.fromIntendedPercentileMillis(i, 99);
            }
        }
        List<Window> phases = new ArrayList<>();
        List<Series> active = new ArrayList<>();
        Map<Integer, List<long[]>> spans = buckets.threadSpans();
        for (PhaseResult p : result.phases()) {
            if (p.started()) {
                phases.add(new Window(
                        p.name(),
                        (p.startNanos() - result.startNanos()) / 1e9,
                        (p.endNanos() - result.startNanos()) / 1e9,
                        p.threads()));
                if (!spans.isEmpty()) {
                    active.add(new Series(p.name(), active(spans.getOrDefault(p.index(), List.of()), n, width)));
                }
            }
        }
        List<Series> causes = new ArrayList<>();
        buckets.failedByCode().forEach((code, counts) -> {
            double[] perSecond = new double[n];
            for (int i = 0; i < n; i++) {
                perSecond[i] = counts[i] == 0 ? Double.NaN : counts[i] / bucketLength(i, width, wall);
            }
            causes.add(new Series(AttemptCodes.describe(code), perSecond));
        });
        return new Timeline(
                width,
                v[0],
                v[1],
                v[2],
                v[3],
                v[4],
                v[5],
                open ? v[6] : null,
                open ? v[7] : null,
                v[8],
                v[9],
                phases,
                active,
                causes);
    }

    /** The part of bucket {@code i}'s width the run covered, in seconds (at least a twentieth of the width). */
    private static double bucketLength(int i, double width, double wall) {
        return Math.max(width / 20, Math.min(width, wall - i * width));
    }

    /** Workers active per bucket: each span's overlap with the bucket over the bucket's width, summed. */
    static double[] active(List<long[]> spans, int n, double widthSeconds) {
        double[] a = new double[n];
        long w = Math.round(widthSeconds * 1e9);
        for (long[] s : spans) {
            for (int i = (int) Math.max(0, s[0] / w); i < n && i * w < s[1]; i++) {
                long from = Math.max(s[0], i * w);
                long to = Math.min(s[1], (i + 1) * w);
                a[i] += Math.max(0, to - from) / (double) w;
            }
        }
        return a;
    }
}
