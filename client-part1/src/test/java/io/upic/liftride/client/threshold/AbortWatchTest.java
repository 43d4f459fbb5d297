package io.upic.liftride.client.threshold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.engine.LiveFigures;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.plan.ThreadAssignment;
import io.upic.liftride.cluster.Poll;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class AbortWatchTest {

    private static final long MS = 1_000_000L;
    private static final ThreadAssignment WORKER = new ThreadAssignment(0, "peak", 0, 1, 10, 1_000, 1, 360);

    private final AtomicInteger stops = new AtomicInteger();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    /** A watch over a run of {@code planned} requests whose live figures are {@link #sent} and {@link #failed}. */
    private AbortWatch watch(Duration delay, long planned, AttemptListener listener, String... thresholds) {
        AbortWatch w = new AbortWatch(
                List.of(thresholds).stream().map(Threshold::parse).toList(), delay, planned, listener);
        w.attach(
                () -> List.of(new LiveFigures(
                        0,
                        "peak",
                        Operation.WRITE_NEW_LIFT_RIDE,
                        sent.get(),
                        sent.get() - failed.get(),
                        failed.get(),
                        0,
                        new long[LiveFigures.Cause.values().length],
                        new long[LiveFigures.LATENCY_BOUNDS_NANOS.length + 1],
                        0)),
                stops::incrementAndGet);
        return w;
    }

    private void attempts(AttemptRecorder r, int n, long latencyNanos) {
        for (int i = 0; i < n; i++) {
            r.onAttempt(0, 0, latencyNanos, 201, 1);
            sent.incrementAndGet();
        }
    }

    @Test
    void theFirstThresholdThatCanNoLongerHoldStopsTheRunOnceAndIsNamedWithItsMoment() {
        AbortWatch w = watch(Duration.ZERO, 1_000, AttemptListener.NONE, "mean<1s", "p99<100ms");
        AttemptRecorder r = w.recorder(WORKER);
        attempts(r, 10, 150 * MS); // p99 of 1,000 lets 10 past
        assertFalse(w.judge(2_000 * MS));
        attempts(r, 1, 100 * MS); // exactly the bound: outside "< 100ms"
        assertTrue(w.judge(3_000 * MS));
        assertEquals(1, stops.get());
        Abort a = w.abort();
        assertEquals("p99<100ms", a.threshold());
        assertEquals(3_000 * MS, a.afterNanos());
        assertTrue(a.reason().startsWith("11 attempts took at least 100.000 ms, more than the 10"), a.reason());
    }

    @Test
    void nothingIsJudgedBeforeTheDelayHasPassed() {
        AbortWatch w = watch(Duration.ofSeconds(5), 1_000, AttemptListener.NONE, "max<1s");
        attempts(w.recorder(WORKER), 1, 2_000 * MS);
        assertFalse(w.judge(4_999 * MS));
        assertNull(w.abort());
        assertTrue(w.judge(5_000 * MS));
        assertEquals(1, stops.get());
    }

    @Test
    void aRunThatHasSentEveryRequestIsNotStopped() {
        AbortWatch w = watch(Duration.ZERO, 10, AttemptListener.NONE, "max<1s");
        attempts(w.recorder(WORKER), 10, 2_000 * MS);
        assertFalse(w.judge(1_000 * MS));
        assertEquals(0, stops.get());
    }

    @Test
    void failedRequestsComeFromTheLiveFiguresAndRetriesFromTheAttempts() {
        AbortWatch w = watch(Duration.ZERO, 1_000, AttemptListener.NONE, "failed==0", "p99<100ms");
        AttemptRecorder r = w.recorder(WORKER);
        attempts(r, 11, 150 * MS);
        for (int i = 0; i < 100; i++) {
            r.onAttempt(0, 0, 1 * MS, 201, 2); // retries: 1,100 attempts at most, p99 lets 11 past
        }
        assertFalse(w.judge(1_000 * MS));
        failed.set(1);
        assertTrue(w.judge(1_000 * MS));
        assertEquals("failed==0", w.abort().threshold());
        assertEquals("1 request failed", w.abort().reason());
    }

    @Test
    void anIntendedLatencyCountsFromTheScheduledSend() {
        AbortWatch w = watch(Duration.ZERO, 1_000, AttemptListener.NONE, "max<100ms", "intended.max<100ms");
        // sent 90 ms after its slot, answered in 20 ms: 110 ms from the intended send, 20 ms from the actual one
        w.recorder(WORKER).onAttempt(0, 1_090 * MS, 1_000 * MS, 20 * MS, 201, 1);
        sent.incrementAndGet();
        assertTrue(w.judge(2_000 * MS));
        assertEquals("intended.max<100ms", w.abort().threshold());
    }

    @Test
    void theWrappedListenerSeesEveryAttemptAndTheWatchThreadStopsTheRunByItself() {
        AtomicInteger seen = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        AttemptListener own = assignment -> new AttemptRecorder() {
            @Override
            public void onAttempt(long epochMillis, long startNanos, long latencyNanos, int code, int attempt) {
                seen.incrementAndGet();
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
        AbortWatch w = watch(Duration.ZERO, 1_000, own, "max<1s");
        AttemptRecorder r = w.recorder(WORKER);
        w.onRunStart(null, System.currentTimeMillis(), System.nanoTime());
        attempts(r, 3, 1 * MS);
        attempts(r, 1, 1_500 * MS);
        Poll.until("the watch's stop", Duration.ofSeconds(20), () -> stops.get() == 1);
        r.close();
        w.onRunEnd(null);
        assertEquals(4, seen.get());
        assertEquals(1, closed.get());
        assertEquals("max<1s", w.abort().threshold());
        assertEquals(1, stops.get());
    }

    @Test
    void theWrappedRecorderSeesEachAttemptsOperationSoAMixKeepsItsLatencies() {
        List<Operation> seen = new java.util.ArrayList<>();
        AttemptListener own = assignment -> new AttemptRecorder() {
            @Override
            public void onAttempt(long epochMillis, long startNanos, long latencyNanos, int code, int attempt) {
                seen.add(null);
            }

            @Override
            public void onAttempt(
                    Operation op, long epochMillis, long start, long intended, long latency, int code, int attempt) {
                seen.add(op);
            }
        };
        AbortWatch w = watch(Duration.ZERO, 1_000, own, "p99<100ms");
        AttemptRecorder r = w.recorder(WORKER);
        r.onAttempt(Operation.GET_SKIER_DAY_VERTICAL, 0, 0, AttemptRecorder.UNSCHEDULED, 150 * MS, 200, 1);
        r.onAttempt(Operation.WRITE_NEW_LIFT_RIDE, 0, 0, AttemptRecorder.UNSCHEDULED, 1 * MS, 201, 1);
        assertEquals(List.of(Operation.GET_SKIER_DAY_VERTICAL, Operation.WRITE_NEW_LIFT_RIDE), seen);
        assertEquals(1, ((WorkerTally) r).tally(0), "and the watch still counts it: one attempt over 100 ms");
    }
}
