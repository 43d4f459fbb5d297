package io.upic.liftride.client.threshold;

import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.http.Operation;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Objects;

/**
 * One worker's tallies for {@link AbortWatch}, kept around the worker's own recorder (called first): its retries and,
 * per threshold, what {@link ThresholdOutlook#tallyOf} says. Written only by the worker's thread, readable from any
 * thread: a reader that sees a tally sees at least the retries counted before it (release and acquire, free on x86),
 * so the most attempts it derives never lag the tallies. Allocates nothing per attempt.
 */
final class WorkerTally implements AttemptRecorder {

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int RETRIES = 0;
    private static final int FIRST_TALLY = 1;

    private final AttemptRecorder recorder;
    private final Threshold[] thresholds;
    private final ThresholdOutlook.Tally[] tallies;
    private final long[] slots;

    WorkerTally(AttemptRecorder recorder, List<Threshold> thresholds) {
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.thresholds = thresholds.toArray(Threshold[]::new);
        this.tallies = thresholds.stream().map(ThresholdOutlook::tallyOf).toArray(ThresholdOutlook.Tally[]::new);
        this.slots = new long[FIRST_TALLY + this.thresholds.length];
    }

    @Override
    public void onAttempt(long startEpochMillis, long startNanos, long latencyNanos, int code, int attemptNumber) {
        onAttempt(startEpochMillis, startNanos, UNSCHEDULED, latencyNanos, code, attemptNumber);
    }

    @Override
    public void onAttempt(
            long startEpochMillis,
            long startNanos,
            long intendedStartNanos,
            long latencyNanos,
            int code,
            int attemptNumber) {
        recorder.onAttempt(startEpochMillis, startNanos, intendedStartNanos, latencyNanos, code, attemptNumber);
        tally(startNanos, intendedStartNanos, latencyNanos, attemptNumber);
    }

    /** As above, with the operation passed on to the worker's recorder (which keeps each one's latencies). */
    @Override
    public void onAttempt(
            Operation op,
            long startEpochMillis,
            long startNanos,
            long intendedStartNanos,
            long latencyNanos,
            int code,
            int attemptNumber) {
        recorder.onAttempt(op, startEpochMillis, startNanos, intendedStartNanos, latencyNanos, code, attemptNumber);
        tally(startNanos, intendedStartNanos, latencyNanos, attemptNumber);
    }

    private void tally(long startNanos, long intendedStartNanos, long latencyNanos, int attemptNumber) {
        if (attemptNumber > 1) {
            add(RETRIES, 1);
        }
        long fromIntended = intendedStartNanos == UNSCHEDULED
                ? latencyNanos
                : Math.max(0, startNanos - intendedStartNanos) + latencyNanos;
        for (int i = 0; i < thresholds.length; i++) {
            Threshold t = thresholds[i];
            long nanos = t.metric().intended() ? fromIntended : latencyNanos;
            switch (tallies[i]) {
                case OUTSIDE -> {
                    if (!t.holds(nanos)) {
                        add(FIRST_TALLY + i, 1);
                    }
                }
                case LATENCY_SUM -> add(FIRST_TALLY + i, nanos);
                case NONE -> {}
            }
        }
    }

    @Override
    public void close() {
        recorder.close();
    }

    /** Threshold {@code i}'s tally so far; read the tallies before {@link #retries()}. */
    long tally(int i) {
        return (long) SLOT.getAcquire(slots, FIRST_TALLY + i);
    }

    /** Attempts beyond the first so far. */
    long retries() {
        return (long) SLOT.getAcquire(slots, RETRIES);
    }

    private void add(int slot, long n) { // one writer: read-add-write needs no atomic instruction
        SLOT.setRelease(slots, slot, (long) SLOT.getOpaque(slots, slot) + n);
    }
}
