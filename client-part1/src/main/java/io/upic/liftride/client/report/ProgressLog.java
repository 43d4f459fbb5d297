package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.Progress;
import io.upic.liftride.client.engine.ProgressListener;
import java.io.PrintStream;
import java.util.Objects;

/**
 * Progress for a file or a CI log (stderr not a terminal): one plain line every {@link #INTERVAL_NANOS} of
 * run time, the progress line's text with its ETA, and a last line at the end of a run that printed any;
 * so a run shorter than the interval prints nothing. No carriage returns. Calls never overlap (see
 * {@link ProgressListener}).
 */
public final class ProgressLog implements ProgressListener {

    /** How often a line is printed. */
    public static final long INTERVAL_NANOS = 10_000_000_000L;

    private final PrintStream err;
    private final long intervalNanos;
    private final Eta eta = new Eta();
    private long nextNanos;

    public ProgressLog(PrintStream err) {
        this(err, INTERVAL_NANOS);
    }

    ProgressLog(PrintStream err, long intervalNanos) {
        this.err = Objects.requireNonNull(err, "err");
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("intervalNanos <= 0: " + intervalNanos);
        }
        this.intervalNanos = intervalNanos;
        this.nextNanos = intervalNanos;
    }

    @Override
    public void onProgress(Progress p) {
        long left = eta.update(p);
        if (p.finished()) {
            if (nextNanos > intervalNanos) { // printed at least one line: close the account
                err.println(ProgressPrinter.format(p));
                err.flush();
            }
            nextNanos = intervalNanos; // a sweep's next run starts its own clock
            return;
        }
        if (p.elapsedNanos() < nextNanos) {
            return;
        }
        while (nextNanos <= p.elapsedNanos()) {
            nextNanos += intervalNanos;
        }
        err.println(ProgressPrinter.format(p) + "  " + Eta.text(left));
        err.flush();
    }
}
