package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.part2.csv.AttemptChunk;
import io.upic.liftride.client.part2.csv.ChunkPool;
import org.HdrHistogram.IntCountsHistogram;

/**
 * One worker's instrumentation, called on the worker's own thread for every attempt: no lock, no String, no
 * allocation per attempt (a chunk comes from the {@link ChunkPool} once per {@code pool.chunkRows()} attempts).
 * Read by {@link RunMetrics} after the engine joined the worker, which publishes its state.
 */
public final class WorkerRecorder implements AttemptRecorder {

    private final int phaseIndex;
    private final int threadIndex;
    private final ChunkPool pool;
    private final IntCountsHistogram all = LatencyHistograms.forWorker();
    private IntCountsHistogram retries;
    /** Open model: every attempt's latency from its request's intended send (µs); null until the first such. */
    private IntCountsHistogram fromIntended;

    private final Totals fromIntendedTotals = new Totals();

    private AttemptChunk chunk;
    private final Totals allTotals = new Totals();
    private final Totals firstTotals = new Totals();
    private boolean closed;
    /** With --mix: each operation's attempt latencies (µs) and exact totals, by ordinal; null without. */
    private final IntCountsHistogram[] byOperation;

    private final Totals[] operationTotals;

    /** Exact count, sum, min and max of latency in nanoseconds (the histogram rounds; these do not). */
    public static final class Totals {
        long count;
        long sumNanos;
        long minNanos = Long.MAX_VALUE;
        long maxNanos = Long.MIN_VALUE;

        void add(long nanos) {
            count++;
            sumNanos += nanos;
            if (nanos < minNanos) {
                minNanos = nanos;
            }
            if (nanos > maxNanos) {
                maxNanos = nanos;
            }
        }

        /** Adds {@code other} into this. */
        public void add(Totals other) {
            count += other.count;
            sumNanos += other.sumNanos;
            minNanos = Math.min(minNanos, other.minNanos);
            maxNanos = Math.max(maxNanos, other.maxNanos);
        }

        public long count() {
            return count;
        }

        /** Smallest latency, or 0 without values. */
        public long minNanos() {
            return count == 0 ? 0 : minNanos;
        }
        /** Largest latency, or 0 without values. */
        public long maxNanos() {
            return count == 0 ? 0 : maxNanos;
        }
        /** Mean latency in nanoseconds, NaN without values. */
        public double meanNanos() {
            return count == 0 ? Double.NaN : (double) sumNanos / count;
        }
    }

    public WorkerRecorder(int phaseIndex, int threadIndex, ChunkPool pool) {
        this(phaseIndex, threadIndex, pool, false);
    }

    /** A recorder that also keeps each operation's latencies when {@code byOperation} (a run with --mix). */
    public WorkerRecorder(int phaseIndex, int threadIndex, ChunkPool pool, boolean byOperation) {
        this.phaseIndex = phaseIndex;
        this.threadIndex = threadIndex;
        this.pool = pool;
        int ops = Operation.values().length;
        this.byOperation = byOperation ? new IntCountsHistogram[ops] : null;
        this.operationTotals = byOperation ? new Totals[ops] : null;
    }

    @Override
    public void onAttempt(long startEpochMillis, long startNanos, long latencyNanos, int code, int attemptNumber) {
        onAttempt(startEpochMillis, startNanos, UNSCHEDULED, latencyNanos, code, attemptNumber);
    }

    /** One ride POST; see the full form. */
    @Override
    public void onAttempt(
            long startEpochMillis,
            long startNanos,
            long intendedStartNanos,
            long latencyNanos,
            int code,
            int attemptNumber) {
        onAttempt(
                Operation.WRITE_NEW_LIFT_RIDE,
                startEpochMillis,
                startNanos,
                intendedStartNanos,
                latencyNanos,
                code,
                attemptNumber);
    }

    /**
     * One attempt of {@code op}; in the open model its latency is also recorded from the intended send, and the
     * CSV row gets the send delay.
     */
    @Override
    public void onAttempt(
            Operation op,
            long startEpochMillis,
            long startNanos,
            long intendedStartNanos,
            long latencyNanos,
            int code,
            int attemptNumber) {
        if (byOperation != null) {
            int i = op.ordinal();
            IntCountsHistogram h = byOperation[i];
            if (h == null) {
                byOperation[i] = h = LatencyHistograms.forWorker();
                operationTotals[i] = new Totals();
            }
            h.recordValue(LatencyHistograms.micros(latencyNanos));
            operationTotals[i].add(latencyNanos);
        }
        int sendDelayMicros = -1;
        if (intendedStartNanos != UNSCHEDULED) {
            long delayNanos = Math.max(0, startNanos - intendedStartNanos);
            long fromIntendedNanos = delayNanos + latencyNanos;
            IntCountsHistogram h = fromIntended;
            if (h == null) {
                fromIntended = h = LatencyHistograms.forWorker();
            }
            h.recordValue(LatencyHistograms.micros(fromIntendedNanos));
            fromIntendedTotals.add(fromIntendedNanos);
            sendDelayMicros = (int) Math.min(LatencyHistograms.micros(delayNanos), Integer.MAX_VALUE);
        }
        long micros = LatencyHistograms.micros(latencyNanos);
        all.recordValue(micros);
        allTotals.add(latencyNanos);
        if (attemptNumber <= 1) {
            firstTotals.add(latencyNanos);
        } else {
            IntCountsHistogram r = retries;
            if (r == null) {
                retries = r = LatencyHistograms.forWorker();
            }
            r.recordValue(micros);
        }

        AttemptChunk c = chunk;
        if (c == null) {
            chunk = c = pool.acquire(phaseIndex, threadIndex);
        }
        if (c.add(
                op,
                startEpochMillis,
                startNanos,
                (int) Math.min(micros, Integer.MAX_VALUE),
                code,
                attemptNumber,
                sendDelayMicros)) {
            pool.submit(c);
            chunk = null;
        }
    }

    /** Hands the last, partly filled chunk to the writer; the engine calls this when the worker ends. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        AttemptChunk c = chunk;
        chunk = null;
        if (c == null) {
            return;
        }
        if (c.size() > 0) {
            pool.submit(c);
        } else {
            pool.release(c);
        }
    }

    public int phaseIndex() {
        return phaseIndex;
    }

    public int threadIndex() {
        return threadIndex;
    }
    /** Every attempt's latency (µs). */
    public IntCountsHistogram allHistogram() {
        return all;
    }
    /** Retries only (attempt >= 2), or null if this worker never retried. */
    public IntCountsHistogram retryHistogram() {
        return retries;
    }

    /** Open model: every attempt's latency from its request's intended send (µs); null in the closed model. */
    public IntCountsHistogram fromIntendedHistogram() {
        return fromIntended;
    }

    /** Exact totals of {@link #fromIntendedHistogram()} (count 0 in the closed model). */
    public Totals fromIntendedTotals() {
        return fromIntendedTotals;
    }

    public Totals allTotals() {
        return allTotals;
    }

    public Totals firstTotals() {
        return firstTotals;
    }
    /** With --mix: {@code op}'s attempt latencies (µs), or null if it sent none or keeps none per operation. */
    public IntCountsHistogram operationHistogram(Operation op) {
        return byOperation == null ? null : byOperation[op.ordinal()];
    }

    /** The exact totals of {@link #operationHistogram}, or null with it. */
    public Totals operationTotals(Operation op) {
        return operationTotals == null ? null : operationTotals[op.ordinal()];
    }
}
