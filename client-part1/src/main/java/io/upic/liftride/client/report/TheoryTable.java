package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuScope;
import io.upic.liftride.client.prediction.LittlesLaw;
import io.upic.liftride.client.prediction.Prediction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Little's law beside the measurement for one run, computed once for the console and report.md. Immutable.
 *
 * @param heading what W, D and C are and where they come from
 * @param models  one line per prediction model, with its formula and capacity
 * @param naive   the naive prediction
 * @param model   the closed-network (MVA) prediction, or null without a known D
 * @param rows    the comparison: the peak phase's throughput, latency and requests in flight (when it ran),
 *                then the whole run's wall time and throughput
 */
public record TheoryTable(String heading, List<String> models, Prediction naive, Prediction model, List<Row> rows) {

    private static final Locale L = Locale.US;

    /** How the diff columns are computed. */
    public static final String DIFF_NOTE = "diff = (measured - predicted) / predicted";
    /** How the predicted wall times are computed. */
    public static final String SCHEDULE_NOTE = "the predicted wall times follow the phase schedule with every"
            + " request taking W (naive) or n / X(n), n = the threads busy at that moment in all phases (MVA)";

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
     * @param model    the model's prediction, NaN without one
     */
    public record Row(String quantity, Unit unit, double measured, double naive, double model) {

        public String measuredText() {
            return unit.format(measured);
        }

        public String naiveText() {
            return unit.format(naive);
        }

        public String modelText() {
            return unit.format(model);
        }

        /** (measured - naive) / naive, as "+6.7%". */
        public String naiveDiff() {
            return diff(naive);
        }

        /** (measured - model) / model, as "-11.1%"; "-" without the model's prediction. */
        public String modelDiff() {
            return diff(model);
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
        Prediction bp = report.model();
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

    /** "model (MVA)", or "model (MVA), client CPU" when D is the client's CPU alone. */
    public String modelLabel() {
        return model != null && model.network().scope() == CpuScope.REMOTE_SERVER
                ? "model (MVA), client CPU"
                : "model (MVA)";
    }

    /** The two predictions, each read the same way for a row. */
    private record Models(Prediction naive, Prediction model) {
        Row row(String quantity, Unit unit, double measured, ToDoubleFunction<Prediction> value) {
            double b = model == null ? Double.NaN : value.applyAsDouble(model);
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
                    "Little's law, W = %.3f ms (%s); no model (no CPU per request measured)",
                    p.meanLatencyNanos() / 1e6,
                    source);
        }
        Prediction.Network n = bp.network();
        return String.format(
                L,
                "Prediction, W = %.3f ms (%s); D = %.1f us CPU per request under load (%s; from: %s),"
                        + " C = %d cores, delay Z = %.3f ms (W - D)",
                p.meanLatencyNanos() / 1e6,
                source,
                n.cpuNanosPerRequest() / 1e3,
                n.scope().label(),
                n.source(),
                n.cores(),
                n.delayNanos() / 1e6);
    }

    private static List<String> models(Prediction bp) {
        List<String> lines = new ArrayList<>(2);
        lines.add("naive X = N / W: latency stays W under load (no contention for the CPU)");
        if (bp != null) {
            String caveat = bp.network().scope().caveat();
            lines.add(String.format(
                    L,
                    "model: MVA of a closed network, N threads, a %d-core CPU with demand D and a delay Z: X(1) = 1 /"
                            + " (D + Z), at most C / D = %,.0f req/s, reached from about N* = C (D + Z) / D = %.1f"
                            + " threads%s",
                    bp.network().cores(),
                    bp.network().capacityPerSecond(),
                    bp.saturationThreads(),
                    caveat.isEmpty() ? "" : " (" + caveat + ")"));
        }
        return lines;
    }
}
