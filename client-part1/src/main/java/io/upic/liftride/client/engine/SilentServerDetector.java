package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.AttemptCodes;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides when a run gives up on a server that has been silent for {@code --give-up-after-ms}. Shared
 * by every sender of a run; thread-safe and cheap on the request path (one volatile read per attempt,
 * a write at most every 10 ms).
 *
 * <p>Why: without it, a server that dies mid-run makes every remaining request spend its 6 attempts
 * and up to 310 ms of backoff on it: at -t 32 with 180,000 requests that is some 20 minutes of
 * connection-refused before the client reports anything. The rule: when an attempt ends without an
 * HTTP answer ({@link AttemptCodes#TIMEOUT} or {@link AttemptCodes#CONNECTION_ERROR}) and no attempt
 * of the run has had an HTTP answer, of any status, for at least {@code afterMillis}, the run gives
 * up: {@code onGiveUp} runs once (the engine stops, as on Ctrl-C), and the requests not yet sent are
 * accounted as "not sent". Consequences:
 * <ul>
 *   <li>a server that answers anything (503s, 400s, slowly) is alive and never given up on;</li>
 *   <li>an outage shorter than {@code afterMillis} is ridden out (requests that run into it fail by
 *       the usual rules, and the run carries on);</li>
 *   <li>a dead server ends the run at most {@code afterMillis} plus one attempt (connect or read
 *       timeout) after its last answer.</li>
 * </ul>
 */
public final class SilentServerDetector {

    /** Refresh the last-answer time at most this often: a shared write per attempt would contend. */
    private static final long REFRESH_NANOS = 10_000_000L;

    private final long afterNanos;
    private final Runnable onGiveUp;
    private final AtomicLong lastAnswerNanos;
    private final AtomicBoolean gaveUp = new AtomicBoolean();
    private volatile String reason;

    /**
     * @param afterMillis silence that makes the run give up; 0 never gives up
     * @param startNanos  {@code System.nanoTime()} the silence is measured from until a first answer
     * @param onGiveUp    run once, on the thread whose attempt decided it, when giving up
     */
    public SilentServerDetector(long afterMillis, long startNanos, Runnable onGiveUp) {
        if (afterMillis < 0) {
            throw new IllegalArgumentException("afterMillis < 0: " + afterMillis);
        }
        this.afterNanos = afterMillis * 1_000_000L;
        this.onGiveUp = onGiveUp == null ? () -> {} : onGiveUp;
        this.lastAnswerNanos = new AtomicLong(startNanos);
    }

    /** One that never gives up. */
    public static SilentServerDetector never() {
        return new SilentServerDetector(0, System.nanoTime(), null);
    }

    /** Measures the silence from {@code nanos} (the run's start) if no answer came since. */
    public void startAt(long nanos) {
        lastAnswerNanos.accumulateAndGet(nanos, Math::max);
    }

    /**
     * Reports an attempt that ended at {@code endNanos} with {@code code}; gives up if the rule says so.
     *
     * @return whether the run has given up (now or before)
     */
    public boolean onAttempt(int code, long endNanos) {
        if (code >= 0) {
            if (endNanos - lastAnswerNanos.get() > REFRESH_NANOS) {
                lastAnswerNanos.accumulateAndGet(endNanos, Math::max);
            }
            return gaveUp.get();
        }
        if (afterNanos == 0 || (code != AttemptCodes.TIMEOUT && code != AttemptCodes.CONNECTION_ERROR)) {
            return gaveUp.get();
        }
        if (gaveUp.get()) {
            return true;
        }
        long silentNanos = endNanos - lastAnswerNanos.get();
        if (silentNanos < afterNanos || !gaveUp.compareAndSet(false, true)) {
            return gaveUp.get();
        }
        reason = String.format(
                Locale.US,
                "gave up on the server: no HTTP answer for %.1f s while attempts kept failing "
                        + "(last: %s); the requests not sent yet were not attempted",
                silentNanos / 1e9,
                AttemptCodes.describe(code));
        onGiveUp.run();
        return true;
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
