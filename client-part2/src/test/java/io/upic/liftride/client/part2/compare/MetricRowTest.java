package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.part2.compare.MetricRow.Spread;
import io.upic.liftride.client.part2.compare.MetricRow.Verdict;
import io.upic.liftride.client.threshold.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricRowTest {

    private static final Metric P99 = Metric.percentile(99);

    private static MetricRow row(Metric m, double base, double cand, double band) {
        return MetricRow.judge(m, Spread.of(List.of((double) base)), Spread.of(List.of((double) cand)), band, true);
    }

    @Test
    void aLatencyThatGrewPastTheBandIsARegression() {
        MetricRow r = row(P99, 10, 11.5, 0.10);
        assertEquals(Verdict.REGRESSION, r.verdict());
        assertEquals(0.15, r.change(), 1e-12);
        assertEquals("+15.0%", r.changeText());
        assertTrue(r.regression());
    }

    @Test
    void aLatencyThatFellPastTheBandIsBetter() {
        assertEquals(Verdict.BETTER, row(P99, 10, 8, 0.10).verdict());
    }

    @Test
    void throughputRegressesWhenItFallsAndIsBetterWhenItRises() {
        assertEquals(Verdict.REGRESSION, row(Metric.THROUGHPUT, 1000, 850, 0.10).verdict());
        assertEquals(Verdict.BETTER, row(Metric.THROUGHPUT, 1000, 1200, 0.10).verdict());
        assertEquals(Verdict.WITHIN, row(Metric.THROUGHPUT, 1000, 950, 0.10).verdict());
    }

    @Test
    void aChangeExactlyAtTheBandIsWithinIt() {
        assertEquals(Verdict.WITHIN, row(P99, 8, 10, 0.25).verdict());
        assertEquals(Verdict.REGRESSION, row(P99, 8, 10.001, 0.25).verdict());
    }

    @Test
    void failuresWhereThereWereNoneAreARegressionWhateverTheBand() {
        MetricRow r = row(Metric.FAILED, 0, 3, 1000);
        assertEquals(Verdict.REGRESSION, r.verdict());
        assertEquals("from 0", r.changeText());
        assertEquals(Verdict.WITHIN, row(Metric.FAILED, 0, 0, 0).verdict());
    }

    @Test
    void anOffBandNeverRegresses() {
        MetricRow r = row(Metric.MAX, 1, 100, Double.POSITIVE_INFINITY);
        assertEquals(Verdict.NOT_GATED, r.verdict());
        assertFalse(r.regression());
    }

    @Test
    void anUngatedScopeIsWorseNotARegression() {
        MetricRow r =
                MetricRow.judge(P99, Spread.of(List.of((double) 10)), Spread.of(List.of((double) 20)), 0.10, false);
        assertEquals(Verdict.WORSE, r.verdict());
        assertFalse(r.regression());
    }

    @Test
    void aMetricOneSideDidNotMeasureIsNotCompared() {
        MetricRow r = MetricRow.judge(P99, null, Spread.of(List.of((double) 20)), 0.10, true);
        assertEquals(Verdict.NOT_MEASURED, r.verdict());
        assertEquals("-", r.changeText());
        assertEquals("-", r.text(r.baseline()));
    }

    @Test
    void theMediansAreCompared() {
        MetricRow r = MetricRow.judge(
                P99, Spread.of(List.of(9.0, 10.0, 50.0)), Spread.of(List.of(10.5, 10.8, 11.0)), 0.10, true);
        assertEquals(0.08, r.change(), 1e-12);
        assertEquals(Verdict.WITHIN, r.verdict());
        assertEquals("10.000 (9.000–50.000)", r.text(r.baseline()));
        assertEquals(new Spread(4, 1, 10, 4), Spread.of(List.of(10.0, 1.0, 3.0, 5.0)), "even: the middle two's mean");
        assertEquals(new Spread(2, 2, 2, 1), Spread.of(java.util.Arrays.asList(null, 2.0, Double.NaN)), "unmeasured");
        assertEquals(null, Spread.of(java.util.Arrays.asList(null, null)));
    }
}
