package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.Baseline;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Little's law beside the measurement for one run, computed once: the heading, the models and the rows
 * (quantity, measured, naive prediction, bounded prediction) that the console summary prints and
 * client-part2's report.md renders as a table. Immutable.
 *
 * @param heading what W, D and C are and where they come from
 * @param models  one line per prediction model, with its formula and capacity
 * @param naive   the naive prediction
 * @param bounded the CPU-bounded prediction, or null without the baseline's CPU time
 * @param rows    the comparison: the peak phase's throughput, latency and requests in flight (when it ran),
 *                then the whole run's wall time and throughput
 */
public record TheoryTable(String heading, List<String> models, Prediction naive, Prediction bounded, List<Row> rows) {

    private static final Locale L = Locale.US;

    /** How the diff columns are computed. */
    public static final String DIFF_NOTE = "diff = (measured - predicted) / predicted";
    /** How the predicted wall times are computed. */
    public static final String SCHEDULE_NOTE = "the predicted wall times follow the phase schedule with every"
            + " request taking W (naive) or R(threads busy at that moment, all phases) (bounded)";

    public TheoryTable {
        models = List.copyOf(models);
        rows = List.copyOf(rows);
    }

    /** The unit a row's values are in, and how they print. */
    public enum Unit {
        REQUESTS_PER_SECOND("%,.0f req/s"),
        MILLISECONDS("%.3f ms"),
        SECONDS("%.3f s"),
        REQUESTS("%.1f");

        private final String format;

        Unit(String format) {
            this.format = format;
        }

        /** The value with its unit, or "-" for NaN (no prediction). */
        public String format(double value) {
            return Double.isNaN(value) ? "-" : String.format(L, format, value);
        }
    }

    /**
     * One quantity, measured and predicted.
     *
     * @param quantity what is compared
     * @param unit     the unit of the three values
     * @param measured the measured value
     * @param naive    the naive prediction
     * @param bounded  the bounded prediction, NaN without one
     */
    public record Row(String quantity, Unit unit, double measured, double naive, double bounded) {

        public String measuredText() {
            return unit.format(measured);
        }

        public String naiveText() {
            return unit.format(naive);
        }

        public String boundedText() {
            return unit.format(bounded);
        }

        /** (measured - naive) / naive, as "+6.7%". */
        public String naiveDiff() {
            return diff(naive);
        }

        /** (measured - bounded) / bounded, as "-11.1%"; "-" without a bounded prediction. */
        public String boundedDiff() {
            return diff(bounded);
        }

        private String diff(double predicted) {
            return Double.isNaN(predicted)
                    ? "-"
                    : String.format(L, "%+.1f%%", LittlesLaw.differencePercent(measured, predicted));
        }
    }

    /** The table for {@code report}, or null when it has no prediction (no usable baseline). */
    public static TheoryTable of(RunReport report) {
        Prediction p = report.prediction();
        if (p == null) {
            return null;
        }
        Prediction bp = report.bounded();
        RunResult r = report.result();
        Models m = new Models(p, bp);
        List<Row> rows = new ArrayList<>(5);
        PhaseResult peak = r.phases().get(report.plan().peakPhase().index());
        if (peak.started() && peak.durationNanos() > 0) {
            String throughput = String.format(L, "peak phase throughput (%d threads)", peak.threads());
            double peakX = peak.throughputPerSecond();
            double millis = peak.meanLatencyNanos() / 1e6;
            rows.add(m.row(throughput, Unit.REQUESTS_PER_SECOND, peakX, Prediction::peakThroughputPerSecond));
            rows.add(m.row("peak phase mean latency", Unit.MILLISECONDS, millis, e -> e.peakResponseNanos() / 1e6));
            // Little's law with measured numbers: X x latency; both models keep all N threads busy
            rows.add(m.row(
                    "peak phase requests in flight", Unit.REQUESTS, peakX * millis / 1e3, Prediction::peakThreads));
        }
        rows.add(m.row("whole run wall time", Unit.SECONDS, r.wallNanos() / 1e9, e -> e.wallNanos() / 1e9));
        double x = r.throughputPerSecond();
        rows.add(m.row("whole run throughput", Unit.REQUESTS_PER_SECOND, x, Prediction::throughputPerSecond));
        return new TheoryTable(heading(report.baseline(), p, bp), models(bp), p, bp, rows);
    }

    /** The whole run's throughput row: what a sweep table shows per run. */
    public Row wholeRunThroughput() {
        return rows.get(rows.size() - 1);
    }

    /** "bounded min(N/W, C/D)", or "bounded, client CPU only" when D is the client's CPU alone. */
    public String boundedLabel() {
        return bounded != null && bounded.cpu().scope() == CpuScope.REMOTE_SERVER
                ? "bounded, client CPU only"
                : "bounded min(N/W, C/D)";
    }

    /** The two predictions, each read the same way for a row. */
    private record Models(Prediction naive, Prediction bounded) {
        Row row(String quantity, Unit unit, double measured, ToDoubleFunction<Prediction> value) {
            double b = bounded == null ? Double.NaN : value.applyAsDouble(bounded);
            return new Row(quantity, unit, measured, value.applyAsDouble(naive), b);
        }
    }

    private static String heading(Baseline.Result b, Prediction p, Prediction bp) {
        String source = "single-thread baseline"
                + (b != null && b.warmupRequests() > 0
                        ? String.format(L, " after %,d warm-up requests", b.warmupRequests())
                        : "");
        if (bp == null) {
            return String.format(
                    L,
                    "Little's law, W = %.3f ms (%s); no CPU bound (the baseline's CPU time is unknown)",
                    p.meanLatencyNanos() / 1e6,
                    source);
        }
        return String.format(
                L,
                "Little's law, W = %.3f ms, D = %.1f us CPU per request (Java threads of this JVM: %s), C = %d cores"
                        + " (%s)",
                p.meanLatencyNanos() / 1e6,
                bp.cpu().cpuNanosPerRequest() / 1e3,
                bp.cpu().scope().label(),
                bp.cpu().cores(),
                source);
    }

    private static List<String> models(Prediction bp) {
        List<String> lines = new ArrayList<>(2);
        lines.add("naive   X = N / W: latency stays W under load (no contention for the CPU)");
        if (bp != null) {
            String caveat = bp.cpu().scope().caveat();
            lines.add(String.format(
                    L,
                    "bounded X = min(N / W, C / D), R = max(W, N x D / C): C / D = %,.0f req/s; the CPU bounds"
                            + " throughput above N* = C x W / D = %.1f threads%s",
                    bp.cpu().capacityPerSecond(),
                    bp.saturationThreads(),
                    caveat.isEmpty() ? "" : " (" + caveat + ")"));
        }
        return lines;
    }
}
