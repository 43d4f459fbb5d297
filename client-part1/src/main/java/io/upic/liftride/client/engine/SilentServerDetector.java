package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.AttemptCodes;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides when a run gives up on a server that has answered nothing but errors, or nothing at all, for {@code
 * --give-up-after-ms}: once attempts have failed without a single success for that long, {@code onGiveUp} runs
 * once and the requests not yet sent count as not sent. One success restarts the count; 0 never gives up. Shared
 * by every sender of a run; thread-safe, one volatile read per successful attempt.
 */
public final class SilentServerDetector {

    /** {@link #failingSince}'s value while the last attempt seen succeeded (or none failed yet). */
    private static final long NONE = Long.MIN_VALUE;

    private final long afterNanos;
    private final Runnable onGiveUp;
    /** When the first failed attempt since the last success ended, or {@link #NONE}. */
    private final AtomicLong failingSince = new AtomicLong(NONE);

    private final AtomicBoolean gaveUp = new AtomicBoolean();
    private volatile String reason;

    /**
     * @param afterMillis how long only failures make the run give up; 0 never gives up
     * @param onGiveUp    run once, on the thread whose attempt decided it, when giving up
     */
    public SilentServerDetector(long afterMillis, Runnable onGiveUp) {
        if (afterMillis < 0) {
            throw new IllegalArgumentException("afterMillis < 0: " + afterMillis);
        }
        this.afterNanos = afterMillis * 1_000_000L;
        this.onGiveUp = onGiveUp == null ? () -> {} : onGiveUp;
    }

    /** One that never gives up. */
    public static SilentServerDetector never() {
        return new SilentServerDetector(0, null);
    }

    /**
     * Reports an attempt that ended at {@code endNanos} with {@code code}, a success if {@code succeeded}; gives up if
     * the rule says so.
     *
     * @return whether the run has given up (now or before)
     */
    public boolean onAttempt(boolean succeeded, int code, long endNanos) {
        if (succeeded) {
            if (failingSince.get() != NONE) {
                failingSince.set(NONE);
            }
            return gaveUp.get();
        }
        if (counts(code)) {
            failingSince.compareAndSet(NONE, endNanos);
        }
        return stillFailing(code, endNanos);
    }

    /**
     * Asked by a sender waiting to retry, so a long Retry-After does not postpone giving up.
     *
     * @return whether the run has given up (now or before)
     */
    public boolean stillFailing(int code, long nowNanos) {
        long since = failingSince.get();
        if (!counts(code) || since == NONE || nowNanos - since < afterNanos || !gaveUp.compareAndSet(false, true)) {
            return gaveUp.get();
        }
        reason = String.format(
                Locale.US,
                "gave up on the server: no success for %.1f s while attempts kept failing (last: %s); the requests"
                        + " not sent yet were not attempted",
                (nowNanos - since) / 1e9,
                AttemptCodes.describe(code));
        onGiveUp.run();
        return true;
    }

    /** Whether a failure with {@code code} counts towards giving up: one of the server's, with a limit set. */
    private boolean counts(int code) {
        return afterNanos > 0 && code != AttemptCodes.CLIENT_ERROR;
    }

    /** Whether the run gave up. */
    public boolean gaveUp() {
        return gaveUp.get();
    }

    /** Why the run gave up, for the summary; null if it did not. */
    public String reason() {
        return gaveUp.get() ? reason : null;
    }
}
