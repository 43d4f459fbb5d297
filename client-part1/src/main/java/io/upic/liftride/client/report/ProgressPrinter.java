package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.Progress;
import io.upic.liftride.client.engine.ProgressListener;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The live progress line on stderr: rewritten in place ({@code \r}) once a second, ended with a
 * newline by the final snapshot. Calls never overlap (see {@link ProgressListener}).
 */
public final class ProgressPrinter implements ProgressListener {

    private final PrintStream err;
    private int lastLength;

    public ProgressPrinter(PrintStream err) {
        this.err = err;
    }

    @Override
    public void onProgress(Progress p) {
        String line = format(p);
        StringBuilder b = new StringBuilder(line.length() + 16).append('\r').append(line);
        for (int i = line.length(); i < lastLength; i++) { // wipe the rest of a longer previous line
            b.append(' ');
        }
        lastLength = line.length();
        if (p.finished()) {
            b.append('\r').append(System.lineSeparator());
            lastLength = 0;
        }
        err.print(b);
        err.flush();
    }

    /** "[peak 2/3] 123,456/180,000 (68.6%)  17,234 req/s  0 failed  12.3 s". */
    static String format(Progress p) {
        double pct = p.planned() == 0 ? 100 : p.done() * 100.0 / p.planned();
        return String.format(
                Locale.US,
                "[%s %d/%d] %,d/%,d (%.1f%%)  %,.0f req/s  %,d failed  %.1f s%s",
                p.phaseName(),
                p.phasesStarted(),
                p.phaseCount(),
                p.done(),
                p.planned(),
                pct,
                p.requestsPerSecond(),
                p.failed(),
                p.elapsedNanos() / 1e9,
                p.finished() ? "  done" : "");
    }
}
