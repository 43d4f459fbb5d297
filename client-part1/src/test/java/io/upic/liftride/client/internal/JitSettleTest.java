package io.upic.liftride.client.internal;

import org.junit.jupiter.api.Test;

import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The wait over a scripted process: a fake clock that each sleep advances, and CPU use per poll. */
class JitSettleTest {

    private static final long POLL = JitSettle.POLL_NANOS;

    /** A process whose CPU use per poll interval follows {@code coreShares} (the last value repeats). */
    private static final class ScriptedProcess {
        final double[] coreShares;
        long now = 1_000_000_000L;
        long cpu = 5_000_000_000L;
        int polls;

        ScriptedProcess(double... coreShares) {
            this.coreShares = coreShares;
        }

        void sleep(long nanos) {
            now += nanos;
            cpu += (long) (coreShares[Math.min(polls, coreShares.length - 1)] * nanos);
            polls++;
        }

        JitSettle.Result await(long maxNanos) {
            return JitSettle.await(() -> cpu, () -> now, this::sleep, maxNanos);
        }
    }

    @Test
    void returnsOnceTheProcessHasBeenIdleForThreePollsInARow() {
        ScriptedProcess p = new ScriptedProcess(1.0, 1.0, 0.9, 1.0, 0.05, 0.0, 0.1, 0.0);
        JitSettle.Result r = p.await(3_000_000_000L);
        assertTrue(r.settled());
        assertEquals(4 + JitSettle.IDLE_POLLS, p.polls, "four busy polls, then three idle ones");
        assertEquals(p.polls * POLL, r.waitedNanos());
        assertEquals((long) ((1.0 + 1.0 + 0.9 + 1.0 + 0.05 + 0.0 + 0.1) * POLL), r.cpuNanos(), 3);
    }

    @Test
    void aBusyPollInTheMiddleStartsTheIdleCountAgain() {
        ScriptedProcess p = new ScriptedProcess(0.0, 0.0, 0.5, 0.0, 0.0, 0.0);
        assertTrue(p.await(3_000_000_000L).settled());
        assertEquals(6, p.polls);
    }

    @Test
    void theIdleThresholdIsAFifthOfACore() {
        ScriptedProcess justBusy = new ScriptedProcess(JitSettle.IDLE_CORE_SHARE + 0.01);
        assertFalse(justBusy.await(20 * POLL).settled());
        ScriptedProcess justIdle = new ScriptedProcess(JitSettle.IDLE_CORE_SHARE - 0.01);
        assertTrue(justIdle.await(20 * POLL).settled());
        assertEquals(JitSettle.IDLE_POLLS, justIdle.polls);
    }

    @Test
    void givesUpAtTheCapWhileTheProcessStaysBusy() {
        ScriptedProcess p = new ScriptedProcess(1.0);
        JitSettle.Result r = p.await(50 * POLL);
        assertFalse(r.settled());
        assertEquals(50 * POLL, r.waitedNanos());
        assertEquals(50, p.polls);
    }

    @Test
    void returnsAtOnceWhenTheProcessCpuTimeIsUnknown() {
        LongSupplier unknown = () -> -1;
        JitSettle.Result r = JitSettle.await(unknown, () -> 0, n -> {
            throw new AssertionError("must not sleep");
        }, 1_000_000_000L);
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
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ScriptedProcess(0.0).await(-1));
        assertEquals("maxNanos < 0: -1", e.getMessage());
    }
}
