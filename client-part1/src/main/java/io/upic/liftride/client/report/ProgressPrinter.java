package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.Progress;
import io.upic.liftride.client.engine.ProgressListener;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The live progress line on stderr: rewritten in place ({@code \r}) once a second with an ETA (requests left
 * at the rate of the last 10 s), ended with a newline by the final snapshot. Calls never overlap (see
 * {@link ProgressListener}).
 */
public final class ProgressPrinter implements ProgressListener {

    private final PrintStream err;
    private final Eta eta = new Eta();
    private int lastLength;

    public ProgressPrinter(PrintStream err) {
        this.err = err;
    }

    /**
     * The progress display of a run: none with {@code quiet}; this line, rewritten in place, when {@code inPlace}
     * (stderr is a terminal, or --progress); else a {@link ProgressLog} line every 10 s.
     */
    public static ProgressListener forRun(boolean quiet, boolean inPlace, PrintStream err) {
        return quiet ? null : inPlace ? new ProgressPrinter(err) : new ProgressLog(err);
    }

    @Override
    public void onProgress(Progress p) {
        long left = eta.update(p);
        String line = p.finished() ? format(p) : format(p) + "  " + Eta.text(left);
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

    /** The line, e.g. "[peak 2/3] 123,456/180,000 (68.6%)  17,234 req/s  0 failed  12.3 s". */
    static String format(Progress p) {
        double pct = p.planned() == 0 ? 100 : p.done() * 100.0 / p.planned();
        String rate = p.openModel() && !p.finished()
                ? String.format(Locale.US, "%,.0f of %,.0f req/s offered", p.requestsPerSecond(), p.offeredPerSecond())
                : String.format(Locale.US, "%,.0f req/s", p.requestsPerSecond());
        return String.format(
                Locale.US,
                "[%s %d/%d] %,d/%,d (%.1f%%)  %s  %,d failed  %.1f s%s",
                p.phaseName(),
                p.phasesStarted(),
                p.phaseCount(),
                p.done(),
                p.planned(),
                pct,
                rate,
                p.failed(),
                p.elapsedNanos() / 1e9,
                p.finished() ? "  done" : "");
    }
}
