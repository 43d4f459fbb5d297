package io.upic.liftride.client.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The wait over a scripted process: a fake clock that each sleep advances, CPU use per poll, compile events. */
class JitSettleTest {

    private static final long POLL = JitSettle.POLL_NANOS;
    private static final int WINDOW = JitSettle.WINDOW_POLLS;
    private static final long MAX = 3_000_000_000L;

    /** A process whose CPU use over the j-th sleep is {@code coreShares[j]} (the last value repeats). */
    private static final class ScriptedProcess {
        final double[] coreShares;
        long tickNanos = 1; // how coarsely CPU time is reported (the JDK on Linux: 10 ms)
        int compileFinishesAtPoll = -1;
        long now = 1_000_000_000L;
        double cpu = 5_000_000_000.0;
        long compileMillis = 700;
        int polls;

        ScriptedProcess(double... coreShares) {
            this.coreShares = coreShares;
        }

        ScriptedProcess ticks(long nanos) {
            tickNanos = nanos;
            return this;
        }

        void sleep(long nanos) {
            now += nanos;
            cpu += coreShares[Math.min(polls, coreShares.length - 1)] * nanos;
            polls++;
            if (polls == compileFinishesAtPoll) {
                compileMillis += 40;
            }
        }

        long cpuNanos() {
            return (long) cpu / tickNanos * tickNanos;
        }

        JitSettle.Result await(long maxNanos) {
            return JitSettle.await(this::cpuNanos, () -> compileMillis, () -> now, this::sleep, maxNanos);
        }
    }

    @Test
    void settlesOnceTheLastWindowOfPollsAveragedUnderAFifthOfACore() {
        ScriptedProcess p = new ScriptedProcess(1.0, 1.0, 1.0, 1.0, 1.0, 0.0);
        JitSettle.Result r = p.await(MAX);
        assertTrue(r.settled());
        // the window after poll 13 holds polls 4 and 5 (2 busy of 10: 0.2 core, not under it); after 14, one
        assertEquals(14, p.polls);
        assertEquals(p.polls * POLL, r.waitedNanos());
        assertEquals(5 * POLL, r.cpuNanos());
    }

    @Test
    void aProcessAtAThirdOfACoreIsNotQuietEvenWhenItsCpuTimeComesInTenMillisecondTicks() {
        // With 10 ms ticks, most single 10 ms polls see no CPU at all; a window of ten cannot miss it.
        ScriptedProcess p = new ScriptedProcess(0.3).ticks(10_000_000L);
        JitSettle.Result r = p.await(100 * POLL);
        assertFalse(r.settled(), "waited " + r.waitedNanos());
        assertEquals(100, p.polls);
    }

    @Test
    void anIdleProcessWithTickGrainedCpuSettlesAfterOneWindow() {
        ScriptedProcess p = new ScriptedProcess(0.0).ticks(10_000_000L);
        assertTrue(p.await(MAX).settled());
        assertEquals(WINDOW, p.polls);
    }

    @Test
    void aCompilationFinishingInTheWindowKeepsItWaiting() {
        ScriptedProcess p = new ScriptedProcess(0.0);
        p.compileFinishesAtPoll = 7;
        assertTrue(p.await(MAX).settled());
        assertEquals(7 + WINDOW, p.polls, "the window must start after the compilation finished");
    }

    @Test
    void theIdleThresholdIsAFifthOfACore() {
        assertFalse(new ScriptedProcess(JitSettle.IDLE_CORE_SHARE + 0.01)
                .await(50 * POLL)
                .settled());
        ScriptedProcess justIdle = new ScriptedProcess(JitSettle.IDLE_CORE_SHARE - 0.01);
        assertTrue(justIdle.await(50 * POLL).settled());
        assertEquals(WINDOW, justIdle.polls);
    }

    @Test
    void givesUpAtTheCapWhileTheProcessStaysBusy() {
        ScriptedProcess p = new ScriptedProcess(1.0);
        JitSettle.Result r = p.await(50 * POLL);
        assertFalse(r.settled());
        assertEquals(50 * POLL, r.waitedNanos());
        assertEquals(50, p.polls);
        assertEquals(50 * POLL, r.cpuNanos());
    }

    @Test
    void returnsAtOnceWhenTheProcessCpuTimeIsUnknown() {
        LongSupplier unknown = () -> -1;
        JitSettle.Result r = JitSettle.await(
                unknown,
                () -> 0,
                () -> 0,
                n -> {
                    throw new AssertionError("must not sleep");
                },
                MAX);
        assertFalse(r.settled());
        assertEquals(-1, r.cpuNanos());
        assertEquals(0, r.waitedNanos());
    }

    @Test
    void aZeroCapDoesNotWait() {
        ScriptedProcess p = new ScriptedProcess(0.0);
        assertFalse(p.await(0).settled());
        assertEquals(0, p.polls);
    }

    @Test
    void rejectsANegativeCap() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new ScriptedProcess(0.0).await(-1));
        assertEquals("maxNanos < 0: -1", e.getMessage());
    }
}
