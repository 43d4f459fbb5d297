package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.RideSender;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Sends one request with the retry rule: anything but its expected status is retried after a backoff ({@link
 * RetryPolicy#waitNanos}) until {@link RetryPolicy#maxAttempts()} attempts are used, unless a stop or the
 * {@link SilentServerDetector} ends it; every attempt goes to the {@link AttemptRecorder}. One instance per
 * worker thread; not thread-safe. Allocates nothing per request.
 */
public final class RetryingSender {

    /** Backoff sleeps in slices this long so a stop is noticed promptly. */
    private static final long STOP_POLL_NANOS = 20_000_000L;

    private final RideSender sender;
    private final RetryPolicy policy;
    private final AttemptRecorder recorder;
    private final BooleanSupplier stopRequested;
    private final SilentServerDetector silentServer;
    private final RideKeys keys;

    // the request being sent: set per request, so the retry loop allocates nothing
    private Operation op;
    private int resortId;
    private int seasonId;
    private int dayId;
    private int skierId;
    private int liftId;
    private int minute;
    private int waitTime;
    private String rideKey;

    private int lastAttempts;
    private long lastRequestNanos;
    private long attempts;
    private long latencyNanosSum;
    private RuntimeException firstClientError;

    /** A sender that never gives up on the server by itself (only {@code stopRequested} ends its retries early). */
    public RetryingSender(
            RideSender sender, RetryPolicy policy, AttemptRecorder recorder, BooleanSupplier stopRequested) {
        this(
                sender,
                policy,
                recorder,
                stopRequested,
                SilentServerDetector.never(),
                new RideKeys(RideKeys.newRunId(), "0"));
    }

    /**
     * @param silentServer the run's silent-server detector, told about every attempt (shared by all senders of the run)
     * @param keys the Idempotency-Keys of this sender's rides, one per ride, the same on its retries
     */
    public RetryingSender(
            RideSender sender,
            RetryPolicy policy,
            AttemptRecorder recorder,
            BooleanSupplier stopRequested,
            SilentServerDetector silentServer,
            RideKeys keys) {
        this.sender = Objects.requireNonNull(sender, "sender");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.stopRequested = Objects.requireNonNull(stopRequested, "stopRequested");
        this.silentServer = Objects.requireNonNull(silentServer, "silentServer");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /**
     * Sends the request, retrying as the policy says.
     *
     * @return 201 on success, else the final attempt's HTTP status or negative error kind
     */
    public int send(int resortId, int seasonId, int dayId, int skierId, int liftId, int minute, int waitTime) {
        return send(AttemptRecorder.UNSCHEDULED, resortId, seasonId, dayId, skierId, liftId, minute, waitTime);
    }

    /**
     * {@link #send(int, int, int, int, int, int, int)} for a request due at {@code intendedStartNanos} ({@link
     * AttemptRecorder#UNSCHEDULED} in the closed model).
     */
    public int send(
            long intendedStartNanos,
            int resortId,
            int seasonId,
            int dayId,
            int skierId,
            int liftId,
            int minute,
            int waitTime) {
        setRequest(Operation.WRITE_NEW_LIFT_RIDE, resortId, seasonId, dayId, skierId);
        this.liftId = liftId;
        this.minute = minute;
        this.waitTime = waitTime;
        this.rideKey = keys.next();
        return exchange(intendedStartNanos, AttemptCodes.SUCCESS);
    }

    /** Sends a GET ({@link RideSender#get}), retrying anything but {@code expectedStatus} (200, or 404 on purpose). */
    public int get(
            long intendedStartNanos,
            Operation op,
            int expectedStatus,
            int resortId,
            int seasonId,
            int dayId,
            int skierId) {
        setRequest(op, resortId, seasonId, dayId, skierId);
        return exchange(intendedStartNanos, expectedStatus);
    }

    private void setRequest(Operation op, int resortId, int seasonId, int dayId, int skierId) {
        this.op = op;
        this.resortId = resortId;
        this.seasonId = seasonId;
        this.dayId = dayId;
        this.skierId = skierId;
    }

    /** The request set, attempt after attempt until one ends with {@code expected} or the rule says stop. */
    private int exchange(long intendedStartNanos, int expected) {
        long due = intendedStartNanos;
        for (int attempt = 1; ; attempt++) {
            long startEpochMillis = System.currentTimeMillis();
            long start = System.nanoTime();
            if (due == AttemptRecorder.UNSCHEDULED) {
                due = start;
            }
            int code;
            try {
                code = AttemptCodes.ofStatus(
                        op.writes()
                                ? sender.send(resortId, seasonId, dayId, skierId, liftId, minute, waitTime, rideKey)
                                : sender.get(op, resortId, seasonId, dayId, skierId));
            } catch (IOException e) {
                code = AttemptCodes.classify(e);
            } catch (RuntimeException e) {
                // The SDK or a transport misbehaved; count it like any failure rather than kill the worker.
                code = AttemptCodes.CLIENT_ERROR;
                if (firstClientError == null) {
                    firstClientError = e;
                }
            }
            long latencyNanos = System.nanoTime() - start;
            attempts++;
            latencyNanosSum += latencyNanos;
            lastAttempts = attempt;
            lastRequestNanos = start + latencyNanos - due;
            recorder.onAttempt(op, startEpochMillis, start, intendedStartNanos, latencyNanos, code, attempt);
            boolean gaveUp = silentServer.onAttempt(code == expected, code, start + latencyNanos);

            if (code == expected
                    || !policy.isRetryable(code)
                    || attempt >= policy.maxAttempts()
                    || gaveUp
                    || stopRequested.getAsBoolean()) {
                return code;
            }
            if (!backOff(attempt, code)) {
                return code;
            }
        }
    }

    /**
     * Sleeps before retry number {@code retry} after an attempt that ended with {@code code} (as long as the
     * answer's Retry-After asks, within the policy's cap); false if a stop was requested meanwhile.
     */
    private boolean backOff(int retry, int code) {
        long wait = policy.waitNanos(retry, code, sender.retryAfterMillis(), ThreadLocalRandom.current());
        long deadline = System.nanoTime() + wait;
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            if (stopRequested.getAsBoolean() || silentServer.stillFailing(code, System.nanoTime())) {
                return false;
            }
            LockSupport.parkNanos(this, Math.min(left, STOP_POLL_NANOS));
        }
        return !stopRequested.getAsBoolean() && !silentServer.gaveUp();
    }

    /** Whether the run's {@link SilentServerDetector} has given up on the server. */
    public boolean gaveUp() {
        return silentServer.gaveUp();
    }

    /** Attempts the last {@link #send} used (1 = no retry). */
    public int lastAttempts() {
        return lastAttempts;
    }

    /** The last request's latency in nanoseconds, from its intended send to the end of its last attempt. */
    public long lastRequestNanos() {
        return lastRequestNanos;
    }

    /** Attempts made through this sender so far. */
    public long attempts() {
        return attempts;
    }

    /** Sum of every attempt's latency so far, in nanoseconds. */
    public long latencyNanosSum() {
        return latencyNanosSum;
    }

    /** The first unexpected runtime exception an attempt threw, or null: shown to the user once. */
    public RuntimeException firstClientError() {
        return firstClientError;
    }
}
