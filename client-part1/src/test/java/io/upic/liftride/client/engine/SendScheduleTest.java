package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.upic.liftride.client.plan.OpenModel;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SendScheduleTest {

    @Test
    void slotsAreAbsoluteSoALateRequestShiftsNoneAfterIt() {
        SendSchedule s = new SendSchedule(1_000, 250);
        assertEquals(1_000, s.intendedNanos(0));
        assertEquals(1_250, s.intendedNanos(1));
        assertEquals(1_000 + 250L * 1_000_000, s.intendedNanos(1_000_000));
    }

    @Test
    void threadsOfAPhaseAreSpreadOverOneIntervalInsteadOfFiringTogether() {
        long interval = 4_000_000; // 4 threads at 1,000 req/s
        TreeSet<Long> firsts = new TreeSet<>();
        for (int t = 0; t < 4; t++) {
            firsts.add(SendSchedule.forThread(10_000, interval, t, 4).firstNanos());
        }
        assertEquals(new TreeSet<>(java.util.List.of(10_000L, 1_010_000L, 2_010_000L, 3_010_000L)), firsts);
        assertEquals(10_000, SendSchedule.forThread(10_000, interval, 0, 1).firstNanos());
    }

    @Test
    void anIntervalBelowOneNanosecondOrAThreadOutsideThePhaseIsRejected() {
        assertEquals(
                "intervalNanos < 1: 0",
                assertThrows(IllegalArgumentException.class, () -> new SendSchedule(0, 0))
                        .getMessage());
        assertEquals(
                "threadIndex not in 0..3: 4",
                assertThrows(IllegalArgumentException.class, () -> SendSchedule.forThread(0, 10, 4, 4))
                        .getMessage());
    }

    @Test
    void theOpenModelGivesEachThreadItsShareOfThePeakRate() {
        OpenModel m = new OpenModel(3_000, 64);
        assertEquals(21_333_333, m.intervalNanos()); // 64 / 3,000 s
        assertEquals(750.0, m.offeredPerSecond(16), 1e-9); // a phase with a quarter of the threads
        assertEquals(1, new OpenModel(1e9, 1).intervalNanos(), "never below 1 ns");
        assertThrows(IllegalArgumentException.class, () -> new OpenModel(0, 4));
        assertThrows(IllegalArgumentException.class, () -> new OpenModel(Double.NaN, 4));
    }
}
