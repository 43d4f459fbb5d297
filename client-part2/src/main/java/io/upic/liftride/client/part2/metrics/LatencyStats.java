package io.upic.liftride.client.part2.metrics;

import java.util.List;
import org.HdrHistogram.AbstractHistogram;

/**
 * Latency statistics of a set of attempts, in milliseconds. Immutable. Count, mean, min and max are exact; the
 * percentiles are HdrHistogram's nearest-rank values ({@link LatencyHistograms}: microseconds, 3 significant
 * digits), at most 0.1% above the exact one and capped at the exact maximum.
 *
 * @param count      attempts
 * @param meanMillis exact mean, NaN if count == 0
 * @param minMillis  exact minimum (0 if count == 0)
 * @param p50Millis  median (p50)
 * @param p90Millis  90th percentile
 * @param p95Millis  95th percentile
 * @param p99Millis  99th percentile
 * @param p999Millis 99.9th percentile
 * @param maxMillis  exact maximum (0 if count == 0)
 */
public record LatencyStats(
        long count,
        double meanMillis,
        double minMillis,
        double p50Millis,
        double p90Millis,
        double p95Millis,
        double p99Millis,
        double p999Millis,
        double maxMillis) {

    /** The columns of every latency table (console, markdown, HTML), in the order of {@link #columnsMillis}. */
    public static final List<String> COLUMNS = List.of("mean", "median", "p90", "p95", "p99", "p99.9", "min", "max");

    /** Statistics of nothing. */
    public static final LatencyStats EMPTY = new LatencyStats(0, Double.NaN, 0, 0, 0, 0, 0, 0, 0);

    /**
     * @param histogram the attempts' latencies in microseconds
     * @param exact     the same attempts' exact count, sum, min and max in nanoseconds
     * @throws IllegalArgumentException if the two disagree on the count (they record the same attempts)
     */
    public static LatencyStats of(AbstractHistogram histogram, WorkerRecorder.Totals exact) {
        if (histogram.getTotalCount() != exact.count()) {
            throw new IllegalArgumentException(
                    "histogram count " + histogram.getTotalCount() + " != exact count " + exact.count());
        }
        if (exact.count() == 0) {
            return EMPTY;
        }
        double max = exact.maxNanos() / 1e6;
        return new LatencyStats(
                exact.count(),
                exact.meanNanos() / 1e6,
                exact.minNanos() / 1e6,
                percentileMillis(histogram, 50, max),
                percentileMillis(histogram, 90, max),
                percentileMillis(histogram, 95, max),
                percentileMillis(histogram, 99, max),
                percentileMillis(histogram, 99.9, max),
                max);
    }

    /** This set's values in the order of {@link #COLUMNS}, in milliseconds. */
    public double[] columnsMillis() {
        return new double[] {meanMillis, p50Millis, p90Millis, p95Millis, p99Millis, p999Millis, minMillis, maxMillis};
    }

    /** HdrHistogram's value at {@code percentile} in milliseconds, capped at the exact {@code maxMillis}. */
    public static double percentileMillis(AbstractHistogram histogram, double percentile, double maxMillis) {
        return Math.min(percentileMillis(histogram, percentile), maxMillis);
    }

    /** HdrHistogram's value at {@code percentile}, microseconds to milliseconds. */
    private static double percentileMillis(AbstractHistogram histogram, double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }
}
