package io.upic.liftride.client.http;

import java.io.Closeable;
import java.io.IOException;

/**
 * Sends one lift-ride POST ({@code /skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}}
 * with body {@code {"liftID", "time", "waitTime"}}) and reports what happened. One instance per
 * worker thread, never shared: implementations need not be thread-safe. Created by a
 * {@link RideSenderFactory}.
 *
 * <p>This is the seam for faster transports: an implementation sends exactly one HTTP request per
 * call (no hidden retries, so every attempt is counted by the caller) and does no logging.
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
     * Sends one attempt of a GET of the contract ({@code op} is not {@link Operation#WRITE_NEW_LIFT_RIDE}) for the
     * values it needs out of these: {@code getSkierDayVertical} all four, {@code getResortSkiersDay} resort, season
     * and day, {@code getSkierResortTotals} skier, resort and season. Returns and throws as {@link #send} does; the
     * body is read and dropped.
     */
    default int get(Operation op, int resortId, int seasonId, int dayId, int skierId) throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " sends no " + op.operationId());
    }

    /**
     * The wait the answer to the last {@link #send} asked for with {@code Retry-After} (either form,
     * read with {@link RetryAfter#millis}), in milliseconds; {@link RetryAfter#NONE} when that answer
     * had no such header or no answer came. The caller decides whether to honour it.
     */
    default long retryAfterMillis() {
        return RetryAfter.NONE;
    }

    /** Releases per-worker resources; never throws. Shared resources belong to the factory. */
    @Override
    default void close() {}
}
