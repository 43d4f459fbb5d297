package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ScheduleLagTest {

    @Test
    void p99IsTheLagNinetyNinePercentOfSendsDidNotExceedWithinThreePercent() {
        ScheduleLag lag = new ScheduleLag();
        for (long i = 1; i <= 10_000; i++) {
            lag.record(i, i * 1_000); // 1 µs .. 10 ms, evenly
        }
        long p99 = lag.snapshot().p99Nanos();
        assertTrue(p99 >= 9_900_000 && p99 <= 9_900_000 * 1.03, "p99 " + p99);
    }

    @Test
    void p99NeverExceedsTheMaxAndIsZeroWithoutSends() {
        ScheduleLag lag = new ScheduleLag();
        assertEquals(0, lag.snapshot().p99Nanos());
        lag.record(1, 70_001);
        assertEquals(70_001, lag.snapshot().p99Nanos());
    }

    @Test
    void mergedLagsGiveThePercentileOfAllTheirSends() {
        ScheduleLag fast = new ScheduleLag();
        ScheduleLag slow = new ScheduleLag();
        for (int i = 0; i < 980; i++) {
            fast.record(i, 5_000);
        }
        for (int i = 0; i < 20; i++) {
            slow.record(i, 50_000_000);
        }
        fast.add(slow);
        ScheduleLag.Snapshot s = fast.snapshot();
        assertEquals(1_000, s.sends());
        assertEquals(50_000_000, s.p99Nanos(), "the top 2% are 50 ms late, so p99 is too");
    }

    @Test
    void everyLagFallsInABucketWhoseUpperBoundIsAtLeastItAndWithinThreePercent() {
        for (long lag = 0; lag < 1L << 42; lag = lag * 5 / 4 + 1) {
            long upper = ScheduleLag.upperNanos(ScheduleLag.bucket(lag));
            assertTrue(upper >= lag && upper <= Math.max(lag * 1.032, lag + 1_024), lag + " -> " + upper);
        }
    }
}
