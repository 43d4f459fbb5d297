package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.upic.liftride.client.part2.compare.MetricRow.Spread;
import io.upic.liftride.client.threshold.Metric;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void theMedianOfAnOddCountIsTheMiddleValue() {
        Spread s = Spread.of(List.of(9.0, 1.0, 5.0));
        assertEquals(new Spread(5, 1, 9, 3), s);
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertEquals(new Spread(4, 1, 10, 4), Spread.of(List.of(10.0, 1.0, 3.0, 5.0)));
    }

    @Test
    void runsThatDidNotMeasureTheMetricAreLeftOut() {
        assertEquals(new Spread(2, 2, 2, 1), Spread.of(Arrays.asList(null, 2.0, Double.NaN)));
        assertNull(Spread.of(Arrays.asList(null, null)));
    }

    @Test
    void severalDifferentValuesShowTheirRangeAndOneValueItself() {
        MetricRow row = MetricRow.judge(Metric.THROUGHPUT, null, null, 0.1, true);
        assertEquals("5.0 (1.0–9.0)", row.text(Spread.of(List.of(1.0, 5.0, 9.0))));
        assertEquals("5.0", row.text(Spread.of(List.of(5.0))));
        assertEquals("5.0", row.text(Spread.of(List.of(5.0, 5.0))));
        assertEquals("-", row.text(null));
    }
}
