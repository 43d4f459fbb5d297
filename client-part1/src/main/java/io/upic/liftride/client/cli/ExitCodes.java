package io.upic.liftride.client.cli;

import io.upic.liftride.client.threshold.ThresholdCheck;
import java.util.List;

/**
 * The client's exit codes, part of its command line (docs/client.md lists them): 0, {@link #FAILED},
 * 2 ({@code UsageException.EXIT_CODE}), {@link ThresholdCheck#EXIT_CODE}, {@link #UNCHECKED}, {@link #DEADLINE},
 * 130 (Ctrl-C). Static and thread-safe.
 */
public final class ExitCodes {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int UNCHECKED = 4;
    public static final int DEADLINE = 5;

    /** From the code that says most to the code that says least; 0 last. */
    private static final List<Integer> PRECEDENCE = List.of(DEADLINE, FAILED, UNCHECKED, ThresholdCheck.EXIT_CODE, OK);

    private ExitCodes() {}

    /**
     * Of two codes that both apply, the one the client exits with: a deadline before a failure (it explains the
     * requests not sent), a failure before unchecked counts, unchecked counts before a failed threshold, then 0.
     */
    public static int worse(int a, int b) {
        if (!PRECEDENCE.contains(a) || !PRECEDENCE.contains(b)) {
            throw new IllegalArgumentException("not a run's exit codes: " + a + ", " + b);
        }
        return PRECEDENCE.indexOf(a) <= PRECEDENCE.indexOf(b) ? a : b;
    }
}
