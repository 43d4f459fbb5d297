package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.report.RunSummary.Latency;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * The one place the histogram settings live. Values are <b>microseconds</b> (latency nanos rounded
 * half-up to whole microseconds), tracked from 1 µs to 60 s with 3 significant digits: every
 * recorded value is kept within 0.1% (values below 2,048 µs exactly); a value above 60 s resizes
 * the histogram instead of failing. Static and thread-safe.
 */
public final class LatencyHistograms {

    public static final long LOWEST_MICROS = 1;
    public static final long HIGHEST_MICROS = 60_000_000L;
    public static final int SIGNIFICANT_DIGITS = 3;
    /** Per-second histograms only feed charts: 2 digits (1%) keeps a long run's buckets small. */
    public static final int PER_SECOND_DIGITS = 2;

    /** The record of no attempt. */
    public static final Latency EMPTY = new Latency(null, null, null, null, null, null, 0L, null, null);

    private LatencyHistograms() {}

    /** A worker's histogram: int counts (a worker never records 2^31 values), half the memory of long counts. */
    public static IntCountsHistogram forWorker() {
        IntCountsHistogram h = new IntCountsHistogram(LOWEST_MICROS, HIGHEST_MICROS, SIGNIFICANT_DIGITS);
        h.setAutoResize(true);
        return h;
    }

    /** A merge target: long counts, resizes to whatever it is given. */
    public static Histogram forMerge() {
        Histogram h = new Histogram(LOWEST_MICROS, HIGHEST_MICROS, SIGNIFICANT_DIGITS);
        h.setAutoResize(true);
        return h;
    }

    /** A small histogram for one second of one run (charts only). */
    public static Histogram forSecond() {
        return new Histogram(PER_SECOND_DIGITS); // auto-resizing, starts tiny
    }

    /** Nanoseconds to the recorded unit: microseconds, rounded half-up; negative values count as 0. */
    public static long micros(long nanos) {
        return nanos <= 0 ? 0 : (nanos + 500) / 1_000;
    }

    /**
     * The summary's record of the attempts in {@code histogram} (µs), whose exact count, sum, min and max are
     * {@code exact}.
     *
     * @throws IllegalArgumentException if the two disagree on the count (they record the same attempts)
     */
    public static Latency latency(AbstractHistogram histogram, WorkerRecorder.Totals exact) {
        if (histogram.getTotalCount() != exact.count()) {
            throw new IllegalArgumentException(
                    "histogram count " + histogram.getTotalCount() + " != exact count " + exact.count());
        }
        return latency(
                histogram, exact.count(), exact.meanNanos() / 1e6, exact.minNanos() / 1e6, exact.maxNanos() / 1e6);
    }

    /** The record of {@code count} attempts in {@code h} with their exact mean, min and max in ms; all null but 0. */
    public static Latency latency(AbstractHistogram h, long count, double mean, double min, double max) {
        if (count == 0) {
            return EMPTY;
        }
        return new Latency(
                mean,
                percentileMillis(h, 50, max),
                percentileMillis(h, 90, max),
                percentileMillis(h, 99, max),
                percentileMillis(h, 99.9, max),
                max,
                count,
                min,
                percentileMillis(h, 95, max));
    }

    /** HdrHistogram's value at {@code percentile} in milliseconds, capped at the exact {@code maxMillis}. */
    public static double percentileMillis(AbstractHistogram histogram, double percentile, double maxMillis) {
        return Math.min(histogram.getValueAtPercentile(percentile) / 1000.0, maxMillis);
    }
}
