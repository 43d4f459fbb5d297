package io.upic.liftride.client.part2.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.report.RunSummary.Latency;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The latency record against a sort-based reference on known data. Percentile definition under test:
 * HdrHistogram's getValueAtPercentile = the nearest-rank value (sorted[ceil(p/100 x n) - 1], at least
 * the first) reported as the highest value equivalent to it in the histogram. So the expected value
 * is exactly {@code highestEquivalentValue(nearestRank)}, which is within the histogram's precision
 * (3 significant digits: at most 1/1024 of the value, 0 below 2,048 µs) above the exact one.
 */
class LatencyHistogramsTest {

    private static final double[] PERCENTILES = {50, 90, 95, 99, 99.9};

    /**
     * Nearest rank: the smallest value with at least p% of the values <= it. The rank is computed in
     * decimal, not double: 99.9 / 100 x 1000 is 999.0000000000001 in doubles, whose ceiling is 1000.
     */
    static long nearestRank(long[] sorted, double percentile) {
        int rank = BigDecimal.valueOf(percentile)
                .multiply(BigDecimal.valueOf(sorted.length))
                .divide(BigDecimal.valueOf(100))
                .setScale(0, RoundingMode.CEILING)
                .intValueExact();
        return sorted[Math.max(rank, 1) - 1];
    }

    private static Latency statsOf(long[] micros) {
        Histogram h = LatencyHistograms.forMerge();
        WorkerRecorder.Totals t = new WorkerRecorder.Totals();
        for (long v : micros) {
            h.recordValue(v);
            t.add(v * 1_000); // exact nanos = the µs value, so exact and histogram describe the same data
        }
        return LatencyHistograms.latency(h, t);
    }

    private static double[] statPercentiles(Latency s) {
        return new double[] {s.p50(), s.p90(), s.p95(), s.p99(), s.p999()};
    }

    @Test
    void percentilesAreTheNearestRankValueRoundedUpToItsBucketWithinPointOnePercent() {
        SplittableRandom random = new SplittableRandom(42);
        long[] micros = new long[100_003]; // not a round count: ranks are not exact multiples
        for (int i = 0; i < micros.length; i++) {
            // log-uniform from 50 µs to 5 s, the range a real run spans
            micros[i] = (long) Math.exp(random.nextDouble(Math.log(50), Math.log(5_000_000)));
        }
        Latency s = statsOf(micros);
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        Histogram h = LatencyHistograms.forMerge();
        double[] got = statPercentiles(s);
        for (int i = 0; i < PERCENTILES.length; i++) {
            long exact = nearestRank(sorted, PERCENTILES[i]);
            double gotMicros = got[i] * 1000;
            assertEquals(h.highestEquivalentValue(exact), gotMicros, 1e-6, "p" + PERCENTILES[i]);
            assertTrue(gotMicros >= exact, "never below the exact value at p" + PERCENTILES[i]);
            assertTrue(gotMicros - exact <= exact / 1024.0, "within 3 significant digits at p" + PERCENTILES[i]);
        }
    }

    @Test
    void everyTableColumnNamesTheValueBelowIt() {
        Latency s = new Latency(1.5, 1.0, 2.0, 4.0, 5.0, 6.0, 9L, 0.5, 3.0);
        List<Double> values = s.columns();
        assertEquals(Latency.COLUMNS.size(), values.size());
        List<Double> expected = List.of(s.mean(), s.p50(), s.p90(), s.p95(), s.p99(), s.p999(), s.min(), s.max());
        for (int i = 0; i < values.size(); i++) {
            assertEquals(expected.get(i), values.get(i), Latency.COLUMNS.get(i));
        }
        assertEquals(List.of("mean", "median", "p90", "p95", "p99", "p99.9", "min", "max"), Latency.COLUMNS);
    }

    @Test
    void meanMinMaxAndCountAreExact() {
        long[] micros = {7, 1_000_003, 250, 250, 3_999, 12};
        Latency s = statsOf(micros);
        assertEquals(6, s.attempts());
        assertEquals(Arrays.stream(micros).sum() / 6.0 / 1000.0, s.mean(), 1e-12);
        assertEquals(0.007, s.min(), 1e-12);
        assertEquals(1000.003, s.max(), 1e-12); // the histogram alone would say 1000.447
    }

    @Test
    void noPercentileReadsAboveTheExactMax() {
        Latency s = statsOf(new long[] {7, 1_000_003}); // its bucket ends at 1,000,447 µs
        assertEquals(1000.003, s.p999(), 1e-12);
        assertEquals(1000.003, s.p99(), 1e-12);
        assertEquals(s.max(), s.p999());
    }

    @Test
    void belowTwoMillisecondsThePercentilesAreExact() {
        long[] micros = new long[1000];
        for (int i = 0; i < micros.length; i++) { // 1048..2047 µs, all in unit-wide buckets
            micros[i] = 2047 - i;
        }
        Latency s = statsOf(micros);
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        double[] got = statPercentiles(s);
        for (int i = 0; i < PERCENTILES.length; i++) {
            assertEquals(nearestRank(sorted, PERCENTILES[i]) / 1000.0, got[i], 1e-12, "p" + PERCENTILES[i]);
        }
    }

    @Test
    void tenValuesGiveTheTextbookNearestRanks() {
        long[] micros = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
        Latency s = statsOf(micros);
        assertEquals(0.050, s.p50(), 1e-12); // rank ceil(5.0) = 5
        assertEquals(0.090, s.p90(), 1e-12); // rank 9
        assertEquals(0.100, s.p95(), 1e-12); // rank ceil(9.5) = 10
        assertEquals(0.100, s.p99(), 1e-12);
        assertEquals(0.100, s.p999(), 1e-12);
        assertEquals(0.055, s.mean(), 1e-12);
    }

    @Test
    void noValuesGiveEmptyStatistics() {
        assertEquals(LatencyHistograms.EMPTY, statsOf(new long[0]));
    }

    @Test
    void aHistogramThatDisagreesWithTheExactCountIsRejected() {
        Histogram h = LatencyHistograms.forMerge();
        h.recordValue(5);
        try {
            LatencyHistograms.latency(h, new WorkerRecorder.Totals());
        } catch (IllegalArgumentException expected) {
            return;
        }
        throw new AssertionError("expected a count mismatch to be rejected");
    }

    @Test
    void nanosAreRoundedHalfUpToMicroseconds() {
        assertEquals(0, LatencyHistograms.micros(-5));
        assertEquals(0, LatencyHistograms.micros(499));
        assertEquals(1, LatencyHistograms.micros(500));
        assertEquals(1_234, LatencyHistograms.micros(1_234_499));
        assertEquals(1_235, LatencyHistograms.micros(1_234_500));
    }
}
