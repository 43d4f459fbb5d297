package io.upic.liftride.client.part2.csv;

import io.upic.liftride.client.http.Operation;

/**
 * A fixed-size block of attempts of one worker, as primitives. Ownership moves with the hand-off from worker to
 * writer and back to the {@link ChunkPool}, so no two threads touch a chunk at once; the pool's queues publish it.
 */
public final class AttemptChunk {

    final long[] startEpochMillis;
    final long[] startNanos;
    final int[] latencyMicros;
    final int[] code;
    final byte[] attempt;
    /** Open model: µs from the request's intended send to this attempt's start; -1 in the closed model. */
    final int[] sendDelayMicros;
    /** The {@link Operation}'s ordinal: a byte per row, named only when the writer formats it. */
    final byte[] operation;

    int size;
    int phaseIndex;
    int threadIndex;

    AttemptChunk(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity < 1: " + capacity);
        }
        startEpochMillis = new long[capacity];
        startNanos = new long[capacity];
        latencyMicros = new int[capacity];
        code = new int[capacity];
        attempt = new byte[capacity];
        sendDelayMicros = new int[capacity];
        operation = new byte[capacity];
    }

    /** Rows filled so far. */
    public int size() {
        return size;
    }

    public int phaseIndex() {
        return phaseIndex;
    }

    public int threadIndex() {
        return threadIndex;
    }

    public long startNanos(int row) {
        return startNanos[row];
    }

    public int latencyMicros(int row) {
        return latencyMicros[row];
    }

    public int code(int row) {
        return code[row];
    }

    /** µs from the request's intended send (open model) to this attempt's start; -1 without a schedule. */
    public int sendDelayMicros(int row) {
        return sendDelayMicros[row];
    }

    /** Appends one ride POST of the closed model; returns whether the chunk is full now (to hand it off). */
    public boolean add(long startEpochMillis, long startNanos, int latencyMicros, int code, int attempt) {
        return add(Operation.WRITE_NEW_LIFT_RIDE, startEpochMillis, startNanos, latencyMicros, code, attempt, -1);
    }

    /**
     * Appends one attempt of {@code op}: of the open model, {@code sendDelayMicros} (>= 0) after its request's
     * intended send, or of the closed model with -1.
     *
     * @return whether the chunk is full now
     */
    public boolean add(
            Operation op,
            long startEpochMillis,
            long startNanos,
            int latencyMicros,
            int code,
            int attempt,
            int sendDelayMicros) {
        int i = size;
        this.operation[i] = (byte) op.ordinal();
        this.sendDelayMicros[i] = sendDelayMicros;
        this.startEpochMillis[i] = startEpochMillis;
        this.startNanos[i] = startNanos;
        this.latencyMicros[i] = latencyMicros;
        this.code[i] = code;
        this.attempt[i] = (byte) Math.min(attempt, Byte.MAX_VALUE);
        size = i + 1;
        return size == this.code.length;
    }

    void reset(int phaseIndex, int threadIndex) {
        this.size = 0;
        this.phaseIndex = phaseIndex;
        this.threadIndex = threadIndex;
    }
}
