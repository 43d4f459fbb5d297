package io.upic.liftride.client.prediction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

class WarmUpTest {
    private final List<Long> requested = new ArrayList<>();
    private final List<Long> wallNanos = new ArrayList<>();

    /**
     * A slice of {@code attempts} attempts whose thread spends {@code micros} of its own CPU on each, and ten times
     * as much in every other slice when {@code alternate} (so the JIT's or other threads' CPU cannot even it out).
     */
    private LongFunction<RunResult> slice(int attempts, long micros, boolean alternate, AtomicInteger calls) {
        return requested -> {
            long start = System.nanoTime();
            this.requested.add(requested);
            int k = calls.incrementAndGet();
            long perAttempt = alternate && k % 2 == 0 ? 10 * micros : micros;
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long end = threads.getCurrentThreadCpuTime() + attempts * perAttempt * 1_000;
            long x = 0;
            while (threads.getCurrentThreadCpuTime() < end) {
                x += System.nanoTime() & 1;
            }
            Requests r = Requests.of(attempts + x * 0, attempts, 0, 0, attempts);
            RunResult result = Fixtures.run().requests(r).build();
            wallNanos.add(System.nanoTime() - start);
            return result;
        };
    }

    @Test
    void steadyCpuPerRequestSettlesWithinAFewSlicesAndLearnsIt() {
        AtomicInteger calls = new AtomicInteger();
        // 0.5 s of CPU a slice: the CPU clocks tick every 10 ms, so D is read to 2% and the compiler's 5% is 2 ticks
        WarmUp.Result w = WarmUp.run(slice(500, 1_000, false, calls), 10_000, () -> false);
        assertTrue(w.settled(), w.toString());
        assertTrue(w.complete());
        assertEquals(calls.get(), w.slices());
        assertTrue(w.slices() >= 2 && w.slices() < 20, w.toString());
        assertEquals(500L * w.slices(), w.attempts());
        // at least the 1 ms spun per attempt (the rest of the process adds a little)
        assertTrue(w.demandNanos() >= 900_000 && w.demandNanos() < 3_000_000, w.toString());
        assertTrue(w.extraCpuNanos() >= 0);
        assertEquals(WarmUp.FIRST_SLICE, requested.get(0));
        for (int i = 1; i < requested.size(); i++) {
            long size = requested.get(i);
            assertTrue(size >= WarmUp.FIRST_SLICE && size <= 4 * requested.get(i - 1), requested.toString());
            // aimed at 1 s of wall time: never more than this slice's own wall time allows
            long aimed = (long) (500 * WarmUp.SLICE_NANOS / (double) wallNanos.get(i - 1));
            assertTrue(size <= Math.max(WarmUp.FIRST_SLICE, aimed), requested + " after " + wallNanos);
        }
        // 500 attempts in well under 2.5 s of wall time (an idle or a moderately busy machine) ask for more
        if (wallNanos.get(0) < 2_000_000_000L) {
            assertTrue(requested.get(1) > WarmUp.FIRST_SLICE, requested + " after " + wallNanos);
        }
    }

    @Test
    void aCpuPerRequestThatKeepsMovingRunsToTheAttemptsItMayMakeAndIsNotWorthStoring() {
        AtomicInteger calls = new AtomicInteger();
        WarmUp.Result w = WarmUp.run(slice(100, 100, true, calls), 250, () -> false);
        assertEquals(3, w.slices(), "100 + 100 < 250, so a third slice runs");
        assertEquals(300, w.attempts());
        assertFalse(w.settled(), w.toString());
        assertFalse(w.complete(), "a limit of attempts is not the time limit");
    }

    @Test
    void aStopBeforeTheFirstSliceRunsNothing() {
        AtomicInteger calls = new AtomicInteger();
        assertNull(WarmUp.run(slice(100, 100, false, calls), 1_000, () -> true));
        assertEquals(0, calls.get());
    }
}
