package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.net.ConnectException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The load calibration runs through the engine and the listener a run uses, warms up in slices, measures a part,
 * and stops: on its own, on a stop request, or when the server goes silent.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CalibrationTest {

    private static final long PART_NANOS = 50_000_000L;
    private static final long WARMUP_NANOS = 3 * PART_NANOS;

    private static Baseline.Spec spec(RetryPolicy retry) {
        return new Baseline.Spec(100, RideValues.DEFAULT, 1_000, retry, 7L);
    }

    @Test
    void itsPlanIsOnePhaseOfThreadsEachOverItsOwnSliceOfTheSkiersTheWholeDayWithNoEndOfItsOwn() {
        LoadPlan plan = Calibration.plan(16, 20_003);
        assertEquals(1, plan.phases().size());
        PlannedPhase phase = plan.phases().get(0);
        assertEquals(Calibration.PHASE, phase.name());
        assertEquals(16, phase.threads());
        assertEquals(16, plan.numThreads());
        int next = 1;
        for (ThreadAssignment a : phase.assignments()) {
            assertEquals(next, a.skierFrom(), "slices follow each other: " + a);
            int size = a.skierTo() - a.skierFrom() + 1;
            assertEquals(a.threadIndex() < 3 ? 1_251 : 1_250, size, "as a run's phase splits 20,003: " + a);
            next = a.skierTo() + 1;
            assertEquals(1, a.startMinute());
            assertEquals(PhasePlan.DAY_MINUTES, a.endMinute());
            assertEquals(Integer.MAX_VALUE, a.requests(), "the calibration stops it, not its count");
        }
        assertEquals(20_004, next, "every skier in one slice");
        // fewer skiers than threads: each thread one skier, shared
        for (ThreadAssignment a : Calibration.plan(4, 3).phases().get(0).assignments()) {
            assertEquals(a.skierFrom(), a.skierTo(), a.toString());
            assertTrue(a.skierFrom() >= 1 && a.skierFrom() <= 3, a.toString());
        }
        assertEquals(
                "threads < 1: 0",
                assertThrows(IllegalArgumentException.class, () -> Calibration.plan(0, 10))
                        .getMessage());
        assertEquals(
                "skiers < 1: 0",
                assertThrows(IllegalArgumentException.class, () -> Calibration.plan(4, 0))
                        .getMessage());
    }

    @Test
    void warmsUpInSlicesForItsWarmUpThenMeasuresAPartWithEveryAttemptThroughTheRunsListener() {
        FakeSenders senders = new FakeSenders((i, skier) -> 201, 100_000);
        Counting listener = new Counting();
        AtomicLong controls = new AtomicLong();
        Calibration.Result r = Calibration.run(
                senders,
                spec(RetryPolicy.DEFAULT),
                Calibration.plan(4, 1_000),
                new Calibration.Length(WARMUP_NANOS, PART_NANOS),
                () -> false,
                listener,
                controls::incrementAndGet);

        assertFalse(r.stopped(), r.toString());
        assertTrue(r.usable(), r.toString());
        assertEquals(4, r.threads());
        assertNull(r.gaveUpReason());
        assertEquals(0, r.failed());
        assertTrue(r.requests() > 0 && r.requests() < r.totalRequests(), r.toString());
        // three slices of warm-up, each ended at the first tick after its time
        assertTrue(r.warmupNanos() >= WARMUP_NANOS, r.toString());
        assertTrue(r.wallNanos() >= PART_NANOS, r.toString());
        assertTrue(r.cpuNanosPerRequest() > 0, r.toString());
        assertTrue(r.cycleNanos() >= 100_000, "each request takes 0.1 ms at least: " + r.cycleNanos());
        assertEquals(r.warmupNanos() + r.wallNanos(), r.costNanos());
        // the run's control request after each warm-up slice but the last: 2 of 3 (1 if a busy machine's late tick
        // ended the second slice past the warm-up)
        assertTrue(controls.get() >= 1 && controls.get() <= 2, controls.toString());
        // the engine's path: the listener's recorders saw every request, and its run ended
        assertEquals(r.totalRequests(), listener.attempts.get());
        assertEquals(r.totalRequests(), senders.attempts.get());
        assertEquals(4, listener.threads.size());
        assertTrue(listener.ended.get(), "onRunEnd");
        assertEquals(4, senders.created.get());
        assertEquals(4, senders.closed.get(), "every sender closed");
        for (FakeSenders.Ride ride : senders.rides) {
            assertTrue(ride.skierId() >= 1 && ride.skierId() <= 1_000, ride.toString());
            assertTrue(ride.minute() >= 1 && ride.minute() <= PhasePlan.DAY_MINUTES, ride.toString());
        }
    }

    @Test
    void aStopRequestEndsItStoppedWithoutAUsableD() {
        AtomicBoolean stop = new AtomicBoolean(true);
        Calibration.Result r = Calibration.run(
                FakeSenders.always(201),
                spec(RetryPolicy.DEFAULT),
                Calibration.plan(2, 100),
                new Calibration.Length(WARMUP_NANOS, PART_NANOS),
                stop::get,
                AttemptListener.NONE,
                () -> {});
        assertTrue(r.stopped(), r.toString());
        assertFalse(r.usable());
        assertTrue(Double.isNaN(r.cpuNanosPerRequest()), r.toString());
    }

    @Test
    @Timeout(30)
    void aFailingControlRequestEndsItAndSaysWhyInsteadOfLeavingItsThreadsSending() {
        Calibration.Result r = Calibration.run(
                FakeSenders.always(201),
                spec(RetryPolicy.DEFAULT),
                Calibration.plan(2, 100),
                new Calibration.Length(WARMUP_NANOS, PART_NANOS),
                () -> false,
                AttemptListener.NONE,
                () -> {
                    throw new IllegalStateException("probe broke");
                });
        assertTrue(r.stopped(), r.toString());
        assertFalse(r.usable());
        assertEquals("calibration failed: java.lang.IllegalStateException: probe broke", r.gaveUpReason());
    }

    @Test
    void aSilentServerMakesItGiveUpAndSayWhy() {
        FakeSenders down = new FakeSenders(
                (i, skier) -> {
                    throw new ConnectException("Connection refused");
                },
                1_000_000);
        Calibration.Result r = Calibration.run(
                down,
                spec(new RetryPolicy(2, 1, 2, 100)),
                Calibration.plan(2, 100),
                new Calibration.Length(WARMUP_NANOS, 10 * PART_NANOS), // silent for 100 ms, well inside the first slice
                () -> false,
                AttemptListener.NONE,
                () -> {});
        assertTrue(r.stopped(), r.toString());
        assertFalse(r.usable());
        assertNotNull(r.gaveUpReason(), r.toString());
    }

    @Test
    void itsResultDerivesDTheCycleAndTheBusyCoresFromTheMeasuredPart() {
        // 16 threads, 20,000 requests in 1 s on 1.5 s of CPU besides 0.1 s of the JIT's
        Calibration.Result r = new Calibration.Result(
                16, 3_000_000_000L, 1_000_000_000L, 20_000, 0, 1_600_000_000L, false, 90_000, null);
        assertEquals(80_000, r.cpuNanosPerRequest(), 1e-9);
        assertEquals(20_000, r.throughputPerSecond(), 1e-9);
        assertEquals(800_000, r.cycleNanos(), 1e-9); // N / X = 16 / 20,000 per s
        assertEquals(1.6, r.busyCores(), 1e-12);
        assertEquals(4_000_000_000L, r.costNanos());
        assertTrue(Double.isNaN(r.toBuilder().cpuNanos(-1).build().busyCores()), "CPU unknown");
        assertTrue(Double.isNaN(r.toBuilder().requests(0).build().cycleNanos()), "no request");
        assertTrue(r.usable());
        assertFalse(r.toBuilder().cpuNanos(0).build().usable(), "no CPU time read: no D");
        assertFalse(r.toBuilder().cpuNanos(-1).build().usable(), "CPU unknown");
        assertFalse(r.toBuilder().requests(0).build().usable(), "nothing done");
        assertFalse(r.toBuilder().stopped(true).build().usable(), "cut short");
    }

    @Test
    void aWarmUpOfZeroIsOneSlice() {
        AtomicLong controls = new AtomicLong();
        Calibration.Result r = Calibration.run(
                FakeSenders.always(201),
                spec(RetryPolicy.DEFAULT),
                Calibration.plan(2, 100),
                new Calibration.Length(0, PART_NANOS),
                () -> false,
                AttemptListener.NONE,
                controls::incrementAndGet);
        assertFalse(r.stopped(), r.toString());
        assertTrue(r.warmupNanos() >= PART_NANOS, r.toString());
        assertEquals(0, controls.get(), "no control request after the last warm-up slice");
    }

    @Test
    void aLengthNeedsAPartAndNoNegativeWarmUp() {
        assertEquals(
                "partNanos <= 0: 0",
                assertThrows(IllegalArgumentException.class, () -> new Calibration.Length(WARMUP_NANOS, 0))
                        .getMessage());
        assertEquals(
                "warmupNanos < 0: -1",
                assertThrows(IllegalArgumentException.class, () -> new Calibration.Length(-1, PART_NANOS))
                        .getMessage());
    }

    /** Counts the attempts its recorders see, the threads they belong to, and the run's end. */
    private static final class Counting implements AttemptListener {
        final AtomicLong attempts = new AtomicLong();
        final Set<Integer> threads = ConcurrentHashMap.newKeySet();
        final AtomicBoolean ended = new AtomicBoolean();

        @Override
        public AttemptRecorder recorder(ThreadAssignment assignment) {
            threads.add(assignment.threadIndex());
            return (startEpochMillis, startNanos, latencyNanos, code, attemptNumber) -> {
                if (code == AttemptCodes.SUCCESS) {
                    attempts.incrementAndGet();
                }
            };
        }

        @Override
        public void onRunEnd(RunResult result) {
            ended.set(true);
        }
    }
}
