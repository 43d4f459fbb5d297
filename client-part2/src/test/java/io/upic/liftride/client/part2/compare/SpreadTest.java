package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        assertEquals("5.0 (1.0–9.0)", Spread.of(List.of(1.0, 5.0, 9.0)).text(v -> String.format("%.1f", v)));
        assertEquals("5.0", Spread.of(5.0).text(v -> String.format("%.1f", v)));
        assertEquals("5.0", Spread.of(List.of(5.0, 5.0)).text(v -> String.format("%.1f", v)));
    }

    @Test
    void aMedianOutsideItsRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Spread(11, 1, 10, 2));
        assertThrows(IllegalArgumentException.class, () -> new Spread(1, 1, 1, 0));
    }
}
