package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WrittenSkiersTest {

    @Test
    void picksOnlySkiersStoredAndKeepsTheLastCapacityOfThem() {
        WrittenSkiers written = new WrittenSkiers();
        assertTrue(written.isEmpty());
        int n = 3 * WrittenSkiers.CAPACITY + 17;
        for (int skier = 1; skier <= n; skier++) {
            written.add(skier);
        }
        assertFalse(written.isEmpty());
        SplittableRandom random = new SplittableRandom(1);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 50_000; i++) {
            int skier = written.pick(random);
            assertTrue(skier > n - WrittenSkiers.CAPACITY && skier <= n, "not among the last stored: " + skier);
            seen.add(skier);
        }
        assertEquals(WrittenSkiers.CAPACITY, seen.size(), "every kept skier can be drawn");
    }

    @Test
    void beforeItIsFullPicksAmongThoseStoredSoFar() {
        WrittenSkiers written = new WrittenSkiers();
        written.add(5);
        written.add(9);
        SplittableRandom random = new SplittableRandom(3);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            seen.add(written.pick(random));
        }
        assertEquals(Set.of(5, 9), seen);
    }
}
