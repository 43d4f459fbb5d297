package io.upic.liftride.client.part2.chart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PercentileCurveTest {

    private static Histogram oneToTenThousandMicros() {
        Histogram h = LatencyHistograms.forMerge();
        for (int v = 1; v <= 10_000; v++) {
            h.recordValue(v);
        }
        return h;
    }

    @Test
    void theCurveRunsFromTheMinimumAtZeroPercentToTheMaximumAtOneInCount() {
        Histogram h = oneToTenThousandMicros();
        PercentileCurve c = PercentileCurve.of(h, 10);
        assertEquals(41, c.size()); // 4 decades x 10 + the first point
        assertEquals(1.0, c.x()[0]);
        assertEquals(0.0, c.percentiles()[0]);
        assertEquals(0.001, c.millis()[0], 1e-12); // the minimum, 1 µs
        assertEquals(10_000.0, c.x()[c.size() - 1]);
        assertEquals(100.0, c.percentiles()[c.size() - 1]);
        assertEquals(h.getMaxValue() / 1000.0, c.millis()[c.size() - 1], 1e-12);
        for (int i = 1; i < c.size(); i++) {
            assertTrue(c.x()[i] > c.x()[i - 1], "x ascending");
            assertTrue(c.percentiles()[i] > c.percentiles()[i - 1], "percentiles ascending");
            assertTrue(c.millis()[i] >= c.millis()[i - 1], "latency non-decreasing");
        }
    }

    @Test
    void eachPointIsTheHistogramsValueAtItsPercentileWhichIsOneMinusOneOverX() {
        Histogram h = oneToTenThousandMicros();
        PercentileCurve c = PercentileCurve.of(h, 1);
        assertArrayEquals(new double[] {1, 10, 100, 1000, 10_000}, c.x(), 1e-9);
        assertArrayEquals(new double[] {0, 90, 99, 99.9, 100}, c.percentiles(), 1e-9);
        assertEquals(h.getValueAtPercentile(90) / 1000.0, c.millis()[1], 1e-12);
        assertEquals(9.0, c.millis()[1], 0.01); // 9,000 µs of 1..10,000
        assertEquals(9.9, c.millis()[2], 0.01);
        assertEquals(9.99, c.millis()[3], 0.01);
    }

    @Test
    void anEmptyHistogramGivesAnEmptyCurveAndOneValueGivesOnePoint() {
        assertEquals(0, PercentileCurve.of(LatencyHistograms.forMerge(), 10).size());
        Histogram one = LatencyHistograms.forMerge();
        one.recordValue(1234);
        PercentileCurve c = PercentileCurve.of(one, 10);
        assertEquals(1, c.size());
        assertEquals(1.234, c.millis()[0], 1e-12);
    }

    @Test
    void axisLabelsAreTheNinesOfThePercentile() {
        assertEquals("0%", PercentileCurve.label(1));
        assertEquals("90%", PercentileCurve.label(10));
        assertEquals("99%", PercentileCurve.label(100));
        assertEquals("99.9%", PercentileCurve.label(1_000));
        assertEquals("99.99%", PercentileCurve.label(10_000));
        assertEquals("99.999%", PercentileCurve.label(100_000));
        assertEquals("50%", PercentileCurve.label(2));
        assertEquals("99.9%", RunCharts.ninesLabel(3.0));
        assertEquals("", RunCharts.ninesLabel(2.5)); // no label between whole nines
        assertEquals("0%", RunCharts.ninesLabel(0.0));
    }
}
