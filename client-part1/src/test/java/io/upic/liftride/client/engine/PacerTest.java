package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PacerTest {

    /** A clock that advances only when parked (by the park time plus an oversleep) or spun (by a step). */
    private static final class FakeClock implements Pacer.Clock {
        long now;
        final long oversleepNanos;
        final long spinStepNanos;
        final List<Long> parks = new ArrayList<>();
        int spins;

        FakeClock(long now, long oversleepNanos, long spinStepNanos) {
            this.now = now;
            this.oversleepNanos = oversleepNanos;
            this.spinStepNanos = spinStepNanos;
        }

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void parkNanos(long nanos) {
            parks.add(nanos);
            now += nanos + oversleepNanos;
        }

        @Override
        public void spin() {
            spins++;
            now += spinStepNanos;
        }
    }

    @Test
    void parksUntilShortlyBeforeTheDeadlineThenSpinsTheRestAndReturnsOnTime() {
        FakeClock clock = new FakeClock(0, 40_000, 1_000); // oversleeps 40 µs, less than the margin
        long late = new Pacer(clock).awaitUntil(5_000_000, () -> false);
        assertEquals(List.of(5_000_000 - Pacer.SPIN_NANOS), clock.parks, "one park, stopping the margin early");
        assertEquals(0, late, "the spin lands on the deadline");
        assertEquals(5_000_000, clock.now);
        assertEquals((Pacer.SPIN_NANOS - 40_000) / 1_000, clock.spins, "only the margin's rest is spun");
    }

    @Test
    void theMarginLearnsTheParksOversleepSoLittleIsSpunAndTheSendStaysOnTime() {
        FakeClock clock = new FakeClock(0, 20_000, 1_000); // oversleeps 20 µs every park
        Pacer pacer = new Pacer(clock);
        long deadline = 0;
        for (int i = 0; i < 100; i++) {
            deadline += 1_000_000;
            pacer.awaitUntil(deadline, () -> false);
        }
        int spinsBefore = clock.spins;
        deadline += 1_000_000;
        long late = pacer.awaitUntil(deadline, () -> false);
        assertTrue(late <= Pacer.LEARN_STEP_NANOS, "late " + late);
        assertTrue(clock.spins - spinsBefore <= 1, "spun " + (clock.spins - spinsBefore) + " µs, not 30");
        assertTrue(Math.abs(pacer.spinNanos() - 20_000) <= Pacer.LEARN_STEP_NANOS, "margin " + pacer.spinNanos());
    }

    @Test
    void aLearnedMarginNeverExceedsTheSpinLimit() {
        FakeClock clock = new FakeClock(0, 5_000_000, 1_000); // a 5 ms oversleep: spinning it away would burn CPU
        Pacer pacer = new Pacer(clock);
        for (int i = 1; i <= 100; i++) {
            pacer.awaitUntil(i * 10_000_000L, () -> false);
        }
        assertEquals(Pacer.SPIN_NANOS, pacer.spinNanos());
    }

    @Test
    void anOversleepBeyondTheMarginIsReportedAsLateness() {
        FakeClock clock = new FakeClock(0, Pacer.SPIN_NANOS + 30_000, 1_000);
        assertEquals(30_000, new Pacer(clock).awaitUntil(5_000_000, () -> false));
        assertEquals(0, clock.spins);
    }

    @Test
    void aDeadlineAlreadyPassedReturnsAtOnceWithHowLateItIs() {
        FakeClock clock = new FakeClock(7_000_000, 0, 1);
        assertEquals(2_000_000, new Pacer(clock).awaitUntil(5_000_000, () -> false));
        assertTrue(clock.parks.isEmpty());
        assertEquals(0, clock.spins);
    }

    @Test
    void aLongWaitParksInSlicesAndAStopEndsIt() {
        FakeClock clock = new FakeClock(0, 0, 1);
        int[] polls = {0};
        long returned = new Pacer(clock).awaitUntil(10_000_000_000L, () -> ++polls[0] > 3);
        assertEquals(0, returned);
        assertEquals(3, clock.parks.size(), "three 20 ms slices, then the stop is seen");
        assertEquals(60_000_000, clock.now);
    }
}
