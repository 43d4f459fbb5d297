package io.upic.liftride.client.http;

import java.util.random.RandomGenerator;

/**
 * How often and how long to retry a request that did not get a 201, and when to stop trying a server that
 * only fails. Immutable and thread-safe. Backoff before retry {@code k} is uniform in {@code [d/2, d]} with
 * {@code d = min(cap, base x 2^(k-1))}; a 503 or 429 with {@code Retry-After} waits the longer of that and the
 * server's delay, capped at {@link #MAX_RETRY_AFTER_MILLIS}.
 *
 * @param maxAttempts       attempts per request including the first, >= 1
 * @param baseBackoffMillis backoff before the first retry, >= 0 (0 disables backoff: tests)
 * @param maxBackoffMillis  cap on a single backoff, >= baseBackoffMillis
 * @param giveUpAfterMillis failures without a success after which a run gives up, >= 0; 0 never gives up
 */
public record RetryPolicy(int maxAttempts, long baseBackoffMillis, long maxBackoffMillis, long giveUpAfterMillis) {

    /** Default backoff before the first retry. */
    public static final long DEFAULT_BASE_BACKOFF_MILLIS = 10;
    /** Default cap on one backoff. */
    public static final long DEFAULT_MAX_BACKOFF_MILLIS = 1_000;
    /** 1.5 x the default read timeout, so a server that stalls for one read timeout is still retried. */
    public static final long DEFAULT_GIVE_UP_AFTER_MILLIS = 15_000;

    /** The longest {@code Retry-After} honoured, so a hostile server cannot park a worker for hours. */
    public static final long MAX_RETRY_AFTER_MILLIS = 10_000;

    /** 6 attempts (the assignment's 5 retries), 10 ms doubling to at most 1 s, give up after 15 s. */
    public static final RetryPolicy DEFAULT =
            new RetryPolicy(6, DEFAULT_BASE_BACKOFF_MILLIS, DEFAULT_MAX_BACKOFF_MILLIS, DEFAULT_GIVE_UP_AFTER_MILLIS);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts < 1: " + maxAttempts);
        }
        if (baseBackoffMillis < 0) {
            throw new IllegalArgumentException("baseBackoffMillis < 0: " + baseBackoffMillis);
        }
        if (maxBackoffMillis < baseBackoffMillis) {
            throw new IllegalArgumentException(
                    "maxBackoffMillis < baseBackoffMillis: " + maxBackoffMillis + " < " + baseBackoffMillis);
        }
        if (giveUpAfterMillis < 0) {
            throw new IllegalArgumentException("giveUpAfterMillis < 0: " + giveUpAfterMillis);
        }
    }

    /** A policy that never gives up on the server (tests, and callers that bound runs themselves). */
    public RetryPolicy(int maxAttempts, long baseBackoffMillis, long maxBackoffMillis) {
        this(maxAttempts, baseBackoffMillis, maxBackoffMillis, 0);
    }

    /** This policy with another backoff (base and cap in milliseconds). */
    public RetryPolicy withBackoff(long baseBackoffMillis, long maxBackoffMillis) {
        return new RetryPolicy(maxAttempts, baseBackoffMillis, maxBackoffMillis, giveUpAfterMillis);
    }

    /** This policy with another give-up limit (0: never give up). */
    public RetryPolicy withGiveUpAfter(long giveUpAfterMillis) {
        return new RetryPolicy(maxAttempts, baseBackoffMillis, maxBackoffMillis, giveUpAfterMillis);
    }

    /** The shortest total backoff of a request that uses all its attempts: the outage it surely rides out. */
    public long minTotalBackoffNanos() {
        long sum = 0;
        for (int retry = 1; retry < maxAttempts; retry++) {
            sum += backoffCapNanos(retry) / 2;
        }
        return sum;
    }

    /** The longest total backoff of a request that uses all its attempts. */
    public long maxTotalBackoffNanos() {
        long sum = 0;
        for (int retry = 1; retry < maxAttempts; retry++) {
            sum += backoffCapNanos(retry);
        }
        return sum;
    }

    /** Whether an attempt that ended with {@code code} is retried (anything but 201). */
    public boolean isRetryable(int code) {
        return !AttemptCodes.isSuccess(code);
    }

    /** Upper bound of the backoff before retry {@code retry} (1-based), in nanoseconds, before jitter. */
    public long backoffCapNanos(int retry) {
        if (retry < 1) {
            throw new IllegalArgumentException("retry < 1: " + retry);
        }
        long millis = baseBackoffMillis << Math.min(retry - 1, 30);
        if (millis < 0 || millis > maxBackoffMillis) {
            millis = maxBackoffMillis;
        }
        return millis * 1_000_000L;
    }

    /** Nanoseconds before retry {@code retry}: the backoff, or a longer (capped) 503/429 Retry-After. */
    public long waitNanos(int retry, int code, long retryAfterMillis, RandomGenerator random) {
        long backoff = backoffNanos(retry, random);
        if (retryAfterMillis < 0 || (code != 503 && code != 429)) {
            return backoff;
        }
        return Math.max(backoff, Math.min(retryAfterMillis, MAX_RETRY_AFTER_MILLIS) * 1_000_000L);
    }

    /** The jittered backoff before retry {@code retry}: uniform in [cap/2, cap] nanoseconds. */
    public long backoffNanos(int retry, RandomGenerator random) {
        long cap = backoffCapNanos(retry);
        if (cap == 0) {
            return 0;
        }
        long half = cap / 2;
        return half + random.nextLong(cap - half + 1);
    }
}
