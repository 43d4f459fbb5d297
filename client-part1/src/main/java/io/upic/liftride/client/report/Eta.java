package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.Progress;
import java.util.ArrayDeque;
import java.util.Locale;

/**
 * The estimated time left of a run, from the requests still to do and the rate of the last
 * {@link #WINDOW_NANOS} (recent, so a phase change shows within seconds; not one second, so one slow second
 * does not swing it). Fed every progress snapshot in order; not thread-safe (progress calls never overlap).
 */
final class Eta {

    /** How far back the rate looks. */
    static final long WINDOW_NANOS = 10_000_000_000L;

    /** Snapshots of the window: {elapsedNanos, done}, oldest first. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();

    /** Records {@code p} and returns the nanoseconds left at the recent rate, or -1 when no rate is known yet. */
    long update(Progress p) {
        if (!samples.isEmpty() && p.elapsedNanos() < samples.peekLast()[0]) {
            samples.clear(); // a new run: its clock starts again
        }
        samples.addLast(new long[] {p.elapsedNanos(), p.done()});
        while (samples.size() > 2 && p.elapsedNanos() - samples.peekFirst()[0] > WINDOW_NANOS) {
            samples.removeFirst();
        }
        long left = p.planned() - p.done();
        if (left <= 0) {
            return 0;
        }
        long[] oldest = samples.peekFirst();
        long dt = p.elapsedNanos() - oldest[0];
        long dn = p.done() - oldest[1];
        if (dt <= 0 || dn <= 0) {
            return -1;
        }
        return (long) (left * ((double) dt / dn));
    }

    /** "ETA 42 s", "ETA 3m 05s", "ETA 1h 02m", or "ETA ?" for -1. */
    static String text(long nanosLeft) {
        if (nanosLeft < 0) {
            return "ETA ?";
        }
        long s = (nanosLeft + 999_999_999L) / 1_000_000_000L;
        if (s < 60) {
            return "ETA " + s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.US, "ETA %dm %02ds", s / 60, s % 60);
        }
        return String.format(Locale.US, "ETA %dh %02dm", s / 3600, s % 3600 / 60);
    }
}
