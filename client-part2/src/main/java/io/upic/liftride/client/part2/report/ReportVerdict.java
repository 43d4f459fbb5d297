package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.report.BriefSummary;
import io.upic.liftride.client.report.RunSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a report's first screen says of each run, taken from its {@code summary.json} values (never recomputed, so
 * page and file agree). Immutable and thread-safe.
 *
 * @param rows one per run, in order
 */
public record ReportVerdict(List<Row> rows) {

    private static final Locale L = Locale.US;
    /** The model's wall-time target: a larger error is a warning. */
    private static final double MODEL_TARGET = 0.15;

    /** The columns after the run's name, in order. */
    public static final List<String> COLUMNS =
            List.of("thresholds", "server reconciliation", "failed", "throughput", "model's error");

    /** How a cell reads at a glance: held, a warning, broken, or nothing to judge. */
    public enum Status {
        OK,
        WARN,
        BAD,
        NONE
    }

    /**
     * One judged number.
     *
     * @param key    its summary.json path ({@code failed}, {@code server.delta}...), the page's {@code data-key}
     * @param value  the number as summary.json has it (a ratio for the prediction's error); NaN when none
     * @param text   what the reader sees
     * @param status its status
     */
    public record Cell(String key, double value, String text, Status status) {}

    /**
     * One run.
     *
     * @param scope the run folder's name
     * @param label what the reader sees ({@code 64 threads})
     * @param cells one per {@link #COLUMNS}
     */
    public record Row(String scope, String label, List<Cell> cells) {

        public Row {
            cells = List.copyOf(cells);
        }

        /** The cell of {@code column} (one of {@link #COLUMNS}). */
        public Cell cell(String column) {
            return cells.get(COLUMNS.indexOf(column));
        }
    }

    public ReportVerdict {
        rows = List.copyOf(rows);
    }

    /** The verdict of {@code runs}. */
    public static ReportVerdict of(List<ReportModel.Run> runs) {
        List<Row> rows = new ArrayList<>();
        for (ReportModel.Run run : runs) {
            RunSummary s = run.summary();
            rows.add(new Row(
                    run.name(),
                    String.format(L, "%d threads", s.threads()),
                    List.of(
                            thresholds(s),
                            server(s.server(), s.successful()),
                            failed(s),
                            throughput(s),
                            prediction(s))));
        }
        return new ReportVerdict(rows);
    }

    private static Cell thresholds(RunSummary s) {
        if (s.abort() != null) {
            return new Cell("thresholdsPassed", 0, s.abort().line(), Status.BAD);
        }
        if (s.thresholds().isEmpty()) {
            return new Cell("thresholdsPassed", Double.NaN, "none set (--threshold)", Status.NONE);
        }
        List<String> failed = s.thresholds().stream()
                .filter(t -> !t.passed())
                .map(t -> t.expr() + (t.value() == null ? "" : String.format(L, " (%,.3f %s)", t.value(), t.unit())))
                .toList();
        int n = s.thresholds().size();
        return failed.isEmpty()
                ? new Cell("thresholdsPassed", 1, String.format(L, "%d of %d held", n, n), Status.OK)
                : new Cell("thresholdsPassed", 0, "FAILED: " + String.join(", ", failed), Status.BAD);
    }

    private static Cell server(RunSummary.Server v, long successful) {
        if (!v.checked()) {
            return new Cell("server.delta", Double.NaN, "not checked: " + v.note(), Status.NONE);
        }
        return Boolean.TRUE.equals(v.reconciled())
                ? new Cell(
                        "server.delta",
                        v.delta(),
                        String.format(L, "stored %,d = %,d successful", v.delta(), successful),
                        Status.OK)
                : new Cell(
                        "server.delta",
                        v.delta(),
                        String.format(L, "MISMATCH: stored %,d, successful %,d", v.delta(), successful),
                        Status.BAD);
    }

    private static Cell failed(RunSummary s) {
        String notSent = s.notSent() == 0 ? "" : String.format(L, "; %,d not sent", s.notSent());
        if (s.failed() == 0) {
            return new Cell("failed", 0, "0 of " + String.format(L, "%,d", s.planned()) + notSent, Status.OK);
        }
        var causes = s.failuresByCause();
        return new Cell(
                "failed",
                s.failed(),
                String.format(L, "%,d of %,d", s.failed(), s.planned())
                        + (causes.isEmpty() ? "" : " (" + BriefSummary.causes(causes) + ")")
                        + notSent,
                Status.BAD);
    }

    private static Cell throughput(RunSummary s) {
        return new Cell(
                "throughput",
                s.throughput(),
                String.format(L, "%,.0f req/s in %.1f s", s.throughput(), s.wallSeconds()),
                s.stopped() ? Status.BAD : Status.NONE);
    }

    /** The model's error on the wall time, as the console gives it; a warning past 15%. */
    private static Cell prediction(RunSummary s) {
        RunSummary.PredictionInputs p = s.prediction();
        if (p == null || !(p.wallSeconds() > 0)) {
            return new Cell("prediction.error", Double.NaN, "no prediction (--baseline 0)", Status.NONE);
        }
        double error = s.wallSeconds() / p.wallSeconds() - 1;
        return new Cell(
                "prediction.error",
                error,
                String.format(L, "%+.1f%% wall time (%s: %.1f s)", 100 * error, p.model(), p.wallSeconds()),
                Math.abs(error) > MODEL_TARGET ? Status.WARN : Status.OK);
    }
}
