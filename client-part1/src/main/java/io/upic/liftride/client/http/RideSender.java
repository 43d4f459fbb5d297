package io.upic.liftride.client.http;

import java.io.Closeable;
import java.io.IOException;

/**
 * Sends one lift-ride POST and reports what happened: exactly one HTTP request per call (no hidden retries, so
 * the caller counts every attempt) and no logging. One instance per worker thread; need not be thread-safe.
 */
public interface RideSender extends Closeable {

    /**
     * Sends one attempt.
     *
     * @param rideKey the ride's {@code Idempotency-Key} (see {@code engine.RideKeys}): the same on every
     *     attempt of one ride, so a server that stored it already answers the retry 201 without storing
     *     it twice; at most 128 visible ASCII characters     *
     * @return the HTTP status code the server answered with, whatever it is (201 is success; 4XX and
     *         5XX are returned, not thrown; the caller counts one outside 100..599 as
     *         {@link AttemptCodes#INVALID_STATUS})
     * @throws java.net.SocketTimeoutException when the connect, write or read timeout expires
     * @throws IOException                     for any other I/O failure (refused, reset, closed)
     */
    int send(int resortId, int seasonId, int dayId, int skierId, int liftId, int minute, int waitTime, String rideKey)
            throws IOException;

    /**
     * Sends one attempt of a GET of the contract ({@code op} is not {@link Operation#WRITE_NEW_LIFT_RIDE}) with the
     * values it needs; returns and throws as {@link #send} does, dropping the body.
     */
    default int get(Operation op, int resortId, int seasonId, int dayId, int skierId) throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " sends no " + op.operationId());
    }

    /** The last answer's Retry-After in ms, or {@link RetryAfter#NONE}; the caller decides to honour it. */
    default long retryAfterMillis() {
        return RetryAfter.NONE;
    }

    /** Releases per-worker resources; never throws. Shared resources belong to the factory. */
    @Override
    default void close() {}
}
