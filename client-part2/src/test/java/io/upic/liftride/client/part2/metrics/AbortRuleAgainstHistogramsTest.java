package io.upic.liftride.client.part2.metrics;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdOutlook;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * --abort-on-fail's percentile rule against the check at the end (the merged HdrHistogram's nearest-rank value,
 * capped at the exact max): a run whose slow attempts the rule still lets past can end under the bound, and once it
 * says lost, the whole run, and any part of it the abort leaves, ends at or over the bound.
 */
class AbortRuleAgainstHistogramsTest {

    private static final long BOUND_NANOS = 200_000_000L;
    private static final long FAST_NANOS = 1_000_000L;

    /** The threshold's value over {@code fast + slow} attempts, as the end of the run computes it. */
    private static double percentileNanos(double pct, long fast, long slow) {
        Histogram h = LatencyHistograms.forMerge();
        h.recordValueWithCount(LatencyHistograms.micros(FAST_NANOS), Math.max(fast, 0));
        double maxNanos = FAST_NANOS;
        if (slow > 0) {
            h.recordValueWithCount(LatencyHistograms.micros(BOUND_NANOS), slow);
            maxNanos = BOUND_NANOS;
        }
        return LatencyHistograms.percentileMillis(h, pct, maxNanos / 1e6) * 1e6;
    }

    @ParameterizedTest(name = "p{0} over {1} planned")
    @CsvSource({
        "50, 1000",
        "90, 7",
        "99, 4000",
        "99, 12345",
        "99.9, 1000",
        "99.9, 999",
        "99.99, 100000",
        "100, 50",
        "99, 1"
    })
    void theRuleIsTightAgainstTheNearestRankPercentileOfTheWholeRunAndOfAnyPartOfIt(double pct, long planned) {
        Threshold t = Threshold.parse("p" + pct + "<200ms");
        ThresholdOutlook.SoFar soFar = new ThresholdOutlook.SoFar(planned, 0, 0, 1_000_000_000L);
        long allowed = 0;
        while (ThresholdOutlook.whyLost(t, allowed + 1, soFar) == null) {
            allowed++;
        }
        assertNull(ThresholdOutlook.whyLost(t, allowed, soFar));
        assertNotNull(ThresholdOutlook.whyLost(t, allowed + 1, soFar));
        if (allowed < planned) { // the rest fast: the run still holds with every slow attempt the rule lets past
            assertTrue(percentileNanos(pct, planned - allowed, allowed) < BOUND_NANOS, "allowed " + allowed);
        }
        long slow = allowed + 1;
        for (long total = slow; total <= planned; total += Math.max(1, planned / 97)) {
            double v = percentileNanos(pct, total - slow, slow);
            assertTrue(v >= BOUND_NANOS, "lost, yet " + total + " attempts end at " + v + " ns");
        }
    }
}
