package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;

/**
 * Receives every HTTP attempt of one worker thread, only from that thread, so it needs no synchronization (the
 * engine's start and join publish its state). Called on the request path: implementations must not block, lock
 * or allocate per call.
 */
public interface AttemptRecorder extends AutoCloseable {

    /** Records nothing. */
    AttemptRecorder NONE = (startEpochMillis, startNanos, latencyNanos, code, attemptNumber) -> {};

    /**
     * One attempt finished (successfully or not).
     *
     * @param startEpochMillis wall-clock time the attempt started ({@code System.currentTimeMillis()})
     * @param startNanos       {@code System.nanoTime()} when the attempt started; subtract the run's
     *                         origin ({@link AttemptListener#onRunStart}) for a run-relative time
     * @param latencyNanos     from just before the request was sent to after the response was read
     * @param code             HTTP status (201 = success), or a negative error kind from
     *                         {@link io.upic.liftride.client.http.AttemptCodes} (-1 timeout,
     *                         -2 connection error, -3 client error)
     * @param attemptNumber    1 for the first attempt of a request, 2..6 for its retries
     */
    void onAttempt(long startEpochMillis, long startNanos, long latencyNanos, int code, int attemptNumber);

    /** {@code intendedStartNanos} of an attempt in the closed model, which has no schedule. */
    long UNSCHEDULED = Long.MIN_VALUE;

    /**
     * One attempt with the time its request was due (the open model's slot, the same for its retries; {@link
     * #UNSCHEDULED} in the closed model), so latency can be taken free of coordinated omission. Ignored by default.
     */
    default void onAttempt(
            long startEpochMillis,
            long startNanos,
            long intendedStartNanos,
            long latencyNanos,
            int code,
            int attemptNumber) {
        onAttempt(startEpochMillis, startNanos, latencyNanos, code, attemptNumber);
    }

    /** One attempt of an operation of the contract: what the engine calls. Ignores the operation by default. */
    default void onAttempt(
            Operation op,
            long startEpochMillis,
            long startNanos,
            long intendedStartNanos,
            long latencyNanos,
            int code,
            int attemptNumber) {
        onAttempt(startEpochMillis, startNanos, intendedStartNanos, latencyNanos, code, attemptNumber);
    }

    /** The worker is done; called once on its thread, before it counts as finished. Flush buffers here. */
    @Override
    default void close() {}
}
