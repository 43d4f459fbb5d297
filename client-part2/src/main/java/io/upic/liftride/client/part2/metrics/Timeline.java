package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A run's latency and throughput over time, one value per time bucket (recorded during the run, never read from
 * the CSV), and its phases' windows: the data of the time charts. Seconds count from the run's start. Values are
 * NaN for a bucket without attempts. Immutable by convention (arrays not copied).
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
        List<Window> phases) {

    /** A phase from its start to its end, in seconds since the run's start. */
    public record Window(String name, double fromSeconds, double toSeconds) {}

    public Timeline {
        phases = List.copyOf(phases);
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
            double length = Math.max(width / 20, Math.min(width, wall - i * width));
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
        for (PhaseResult p : result.phases()) {
            if (p.started()) {
                phases.add(new Window(
                        p.name(),
                        (p.startNanos() - result.startNanos()) / 1e9,
                        (p.endNanos() - result.startNanos()) / 1e9));
            }
        }
        return new Timeline(
                width, v[0], v[1], v[2], v[3], v[4], v[5], open ? v[6] : null, open ? v[7] : null, v[8], v[9], phases);
    }
}
