package io.upic.liftride.client.threshold;

import java.util.Locale;

/**
 * When a threshold can no longer hold while its run goes ({@code --abort-on-fail}): when it fails whatever the
 * requests not yet ended do, counting the planned requests plus the retries made so far (retries not yet made are
 * not foreseen). Only upper bounds on latency and failures and lower bounds on throughput can be lost early;
 * others are judged at the end. Static and thread-safe.
 */
public final class ThresholdOutlook {

    /** What a run's workers keep per attempt for a threshold while the run goes. */
    public enum Tally {
        /** Attempts whose latency alone fails the threshold. */
        OUTSIDE,
        /** The attempts' latencies summed, in nanoseconds. */
        LATENCY_SUM,
        /** Nothing: the request counts answer it, or it is judged at the end only. */
        NONE
    }

    /**
     * A run so far, as its live counts say.
     *
     * @param plannedRequests the requests the plan contains
     * @param retries         attempts beyond the first so far
     * @param failedRequests  requests that ended without a 201 so far
     * @param elapsedNanos    since the run's clock started
     */
    public record SoFar(long plannedRequests, long retries, long failedRequests, long elapsedNanos) {

        /** The most attempts the run can make, as far as can be told now. */
        public long mostAttempts() {
            return plannedRequests + retries;
        }
    }

    /** Which thresholds {@link #judgedEarly}, as messages say it. */
    public static final String JUDGED_EARLY =
            "pN, max or mean with < or <=; failed with <, <= or ==; throughput with > or >=; of the whole run";

    private ThresholdOutlook() {}

    /** Whether {@code t} is ever judged before its run ends; one operation's ({@code {op=...}}) only at the end. */
    public static boolean judgedEarly(Threshold t) {
        if (t.operation() != null) {
            return false;
        }
        boolean upper = t.op() == Comparison.LESS || t.op() == Comparison.LESS_OR_EQUAL;
        return switch (t.metric().kind()) {
            case PERCENTILE, MAX, MEAN -> upper;
            case FAILED -> upper || t.op() == Comparison.EQUAL;
            case THROUGHPUT -> t.op() == Comparison.GREATER || t.op() == Comparison.GREATER_OR_EQUAL;
        };
    }

    /** What the workers keep for {@code t}. */
    public static Tally tallyOf(Threshold t) {
        if (!judgedEarly(t)) {
            return Tally.NONE;
        }
        return switch (t.metric().kind()) {
            case PERCENTILE, MAX -> Tally.OUTSIDE;
            case MEAN -> Tally.LATENCY_SUM;
            case FAILED, THROUGHPUT -> Tally.NONE;
        };
    }

    /**
     * Why {@code t} can no longer hold, or null while it still can (or is judged at the end only).
     *
     * @param tally what the workers kept for it ({@link #tallyOf}); ignored for {@link Tally#NONE}
     */
    public static String whyLost(Threshold t, long tally, SoFar soFar) {
        if (!judgedEarly(t)) {
            return null;
        }
        return switch (t.metric().kind()) {
            case PERCENTILE, MAX -> percentileLost(t, tally, soFar);
            case MEAN -> meanLost(t, tally, soFar.mostAttempts());
            case FAILED -> failedLost(t, soFar.failedRequests());
            case THROUGHPUT -> throughputLost(t, soFar);
        };
    }

    private static String percentileLost(Threshold t, long outside, SoFar soFar) {
        long most = soFar.mostAttempts();
        double pct = t.metric().kind() == Metric.Kind.MAX ? 100 : t.metric().percentile();
        // the nearest rank, ceil(pct% of most); a hair below the product, so rounding never raises it
        long rank = Math.max(1, (long) Math.ceil(pct * most / 100 * (1 - 1e-12)));
        long allowed = most - rank;
        if (outside <= allowed) {
            return null;
        }
        return String.format(
                Locale.US,
                "%,d attempts took %s %s, more than the %,d that %s lets past at the most %,d attempts"
                        + " (%,d planned requests + %,d retries)",
                outside,
                t.op() == Comparison.LESS ? "at least" : "over",
                millis(t.bound()),
                allowed,
                t.metric().label(),
                most,
                soFar.plannedRequests(),
                soFar.retries());
    }

    private static String meanLost(Threshold t, long latencyNanos, long most) {
        if (most == 0 || t.holds(latencyNanos / (double) most)) {
            return null;
        }
        return String.format(
                Locale.US,
                "the attempts so far took %.1f s in all, a mean of %s even over the most %,d attempts",
                latencyNanos / 1e9,
                millis(latencyNanos / (double) most),
                most);
    }

    private static String failedLost(Threshold t, long failed) {
        boolean lost = t.op() == Comparison.EQUAL ? failed > t.bound() : !t.holds(failed);
        return lost ? String.format(Locale.US, "%,d request%s failed", failed, failed == 1 ? "" : "s") : null;
    }

    private static String throughputLost(Threshold t, SoFar soFar) {
        long left = soFar.plannedRequests() - soFar.failedRequests();
        double best = soFar.elapsedNanos() <= 0 ? Double.POSITIVE_INFINITY : left * 1e9 / soFar.elapsedNanos();
        if (t.holds(best)) {
            return null;
        }
        return String.format(
                Locale.US,
                "even if every request not failed succeeded now, %,d in %.1f s is %,.1f req/s",
                left,
                soFar.elapsedNanos() / 1e9,
                best);
    }

    private static String millis(double nanos) {
        return String.format(Locale.US, "%,.3f ms", nanos / 1e6);
    }
}
