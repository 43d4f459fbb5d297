package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;

/**
 * Receives every HTTP attempt of one worker thread. An instance is created for exactly one worker
 * (see {@link AttemptListener#recorder}) and called only from that worker's thread, so it needs no
 * synchronization; the engine's {@code Thread.start()} and {@code join()} publish its state safely to
 * the creating thread and to {@link AttemptListener#onRunEnd}.
 *
 * <p>Called on the request path: implementations must not block, lock or allocate per call.
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
     * One attempt finished, with the time its request was due. The open model (--rate)
     * passes the schedule's slot of the request (the same for its retries), so {@code startNanos + latencyNanos -
     * intendedStartNanos} is the latency the request's sender saw, free of coordinated omission; the closed model
     * passes {@link #UNSCHEDULED}. By default the intended start is ignored.
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

    /**
     * One attempt of an operation of the contract: what the engine calls. By default the operation is ignored; a
     * run without {@code --mix} sends only {@link Operation#WRITE_NEW_LIFT_RIDE}.
     */
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

    /**
     * The worker is done (all its requests, or stopped, or crashed); called once, on the worker's
     * thread, before the engine counts the worker as finished. Flush per-thread buffers here.
     */
    @Override
    default void close() {}
}
