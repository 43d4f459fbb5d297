package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.Operation;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MixTest {

    @Test
    void parsesOperationIdsAndWeightsInAnyOrder() {
        Mix mix = Mix.parse("getSkierDayVertical=5, writeNewLiftRide=90,getResortSkiersDay=5");
        assertEquals(
                Map.of(
                        Operation.WRITE_NEW_LIFT_RIDE, 90,
                        Operation.GET_SKIER_DAY_VERTICAL, 5,
                        Operation.GET_RESORT_SKIERS_DAY, 5),
                mix.weights());
        assertEquals(0, mix.unknownPercent());
        assertEquals("writeNewLiftRide=90,getSkierDayVertical=5,getResortSkiersDay=5", mix.toString());
        assertFalse(mix.contains(Operation.GET_SKIER_RESORT_TOTALS));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "getSkierDayVertical=5|no writeNewLiftRide in the mix",
                "writeNewLiftRide=9,getResorts=1|unknown operation getResorts; operations: writeNewLiftRide,",
                "writeNewLiftRide|no =weight in writeNewLiftRide",
                "writeNewLiftRide=0|weight of writeNewLiftRide not in 1..1000000: 0",
                "writeNewLiftRide=x|weight of writeNewLiftRide is no integer: x",
                "writeNewLiftRide=1,writeNewLiftRide=2|writeNewLiftRide named twice",
                "writeNewLiftRide=1,|no =weight in "
            })
    void refusesAMixNamingWhatIsWrong(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Mix.parse(text));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void refusesAnUnknownShareOutsideZeroToHundred() {
        Mix mix = Mix.parse("writeNewLiftRide=1,getResortSkiersDay=1");
        assertEquals(100, mix.withUnknownPercent(100).unknownPercent());
        assertThrows(IllegalArgumentException.class, () -> mix.withUnknownPercent(101));
        assertThrows(IllegalArgumentException.class, () -> mix.withUnknownPercent(-1));
    }

    /**
     * 200,000 draws from a fixed seed: each share within 5 standard deviations of its weight's (at most 0.0011 of
     * the draws here); the seed makes the counts the same on every run, so the bound cannot flake.
     */
    @Test
    void picksEachOperationInProportionToItsWeight() {
        Mix mix = Mix.parse("writeNewLiftRide=90,getSkierDayVertical=5,getResortSkiersDay=3,getSkierResortTotals=2");
        SplittableRandom random = new SplittableRandom(42);
        int n = 200_000;
        Map<Operation, Integer> counts = new EnumMap<>(Operation.class);
        for (int i = 0; i < n; i++) {
            counts.merge(mix.pick(random), 1, Integer::sum);
        }
        mix.weights().forEach((op, weight) -> {
            double p = weight / 100.0;
            double sigma = Math.sqrt(p * (1 - p) / n);
            double share = counts.getOrDefault(op, 0) / (double) n;
            assertTrue(Math.abs(share - p) < 5 * sigma, op + ": " + share + " vs " + p);
        });
        assertEquals(4, counts.size());
    }

    @Test
    void drawsTheUnknownShareAndNothingAtZero() {
        Mix none = Mix.parse("writeNewLiftRide=1,getSkierDayVertical=1");
        SplittableRandom random = new SplittableRandom(7);
        SplittableRandom untouched = new SplittableRandom(7);
        assertFalse(none.unknown(random));
        assertEquals(untouched.nextLong(), random.nextLong(), "a share of 0 draws nothing from the stream");

        Mix tenth = none.withUnknownPercent(10);
        int n = 100_000;
        int unknown = 0;
        for (int i = 0; i < n; i++) {
            unknown += tenth.unknown(random) ? 1 : 0;
        }
        assertEquals(0.10, unknown / (double) n, 5 * Math.sqrt(0.1 * 0.9 / n));
    }

    @Test
    void theUnknownResortIsNeverTheRunsOwn() {
        assertEquals(Integer.MAX_VALUE, Mix.unknownResort(1));
        assertEquals(Integer.MAX_VALUE - 1, Mix.unknownResort(Integer.MAX_VALUE));
    }
}
