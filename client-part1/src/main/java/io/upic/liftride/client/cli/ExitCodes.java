package io.upic.liftride.client.cli;

import io.upic.liftride.client.threshold.ThresholdCheck;

/**
 * The client's exit codes, part of its command line, and which one a run ends with when several apply.
 *
 * <ul>
 *   <li>0: every request got its 201 and the counts reconcile with the server's;</li>
 *   <li>{@link #FAILED} 1: a request failed or was not sent, the counts do not reconcile, the server is unreachable,
 *       or an output could not be written;</li>
 *   <li>2: a bad flag ({@code UsageException.EXIT_CODE});</li>
 *   <li>{@link ThresholdCheck#EXIT_CODE} 3: every request succeeded but a {@code --threshold} failed;</li>
 *   <li>{@link #UNCHECKED} 4: the server's stored-ride count could not be read (or was malformed), so the counts
 *       were not checked;</li>
 *   <li>{@link #DEADLINE} 5: {@code --max-duration} passed and the client stopped;</li>
 *   <li>130: Ctrl-C (the JVM's code for SIGINT).</li>
 * </ul>
 *
 * Static and thread-safe.
 */
public final class ExitCodes {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int UNCHECKED = 4;
    public static final int DEADLINE = 5;

    /** From the code that says most to the code that says least; 0 last. */
    private static final int[] PRECEDENCE = {DEADLINE, FAILED, UNCHECKED, ThresholdCheck.EXIT_CODE, OK};

    private ExitCodes() {}

    /**
     * Of two codes that both apply, the one the client exits with: a deadline before a failure (it explains the
     * requests not sent), a failure before unchecked counts, unchecked counts before a failed threshold, then 0.
     */
    public static int worse(int a, int b) {
        return rank(a) <= rank(b) ? a : b;
    }

    private static int rank(int code) {
        for (int i = 0; i < PRECEDENCE.length; i++) {
            if (PRECEDENCE[i] == code) {
                return i;
            }
        }
        throw new IllegalArgumentException("not a run's exit code: " + code);
    }
}
