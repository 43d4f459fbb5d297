package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.metrics.Timeline;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.report.Reconciliation;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunTables;
import io.upic.liftride.client.report.TheoryTable;
import io.upic.liftride.client.report.VerboseSummary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Builds the {@link ReportModel} of client-part2's own runs. Stateless and thread-safe. */
public final class ReportModels {

    private static final Locale L = Locale.US;

    private ReportModels() {}

    /**
     * The document's context.
     *
     * @param command     the command line as typed (for the reader to repeat it)
     * @param generatedAt when, as text
     * @param stopped     whether a stop (Ctrl-C, --max-duration, or a give-up on a silent server) cut the command short
     */
    public record Context(String command, String generatedAt, boolean stopped) {}

    /** The model of the command's runs so far ({@code sections} in the order of {@code outputs}). */
    public static ReportModel of(
            Context ctx, List<RunOutput> outputs, List<ReportModel.Run> sections, List<ChartFile> sweepCharts) {
        List<ReportModel.Fact> facts =
                outputs.isEmpty() ? List.of() : facts(outputs.get(0).report());
        RunReport last =
                outputs.isEmpty() ? null : outputs.get(outputs.size() - 1).report();
        List<String> intro = last != null && last.abort() != null
                ? List.of(RunSummary.Aborted.of(last.abort()).line() + "; the last run is a partial account.")
                : ctx.stopped()
                        ? List.of(
                                "Stopped early (Ctrl-C, --max-duration, or the client gave up on a server that stopped"
                                        + " answering): the last run is a partial account; its PROBLEM lines say why.")
                        : List.of();
        var header = new ReportModel.Header(
                "LiftRide load test report", ctx.command(), ctx.generatedAt(), facts, intro, ctx.stopped());
        return new ReportModel(header, outputs.size() > 1 ? sweep(outputs, sweepCharts) : null, sections);
    }

    private static List<ReportModel.Fact> facts(RunReport first) {
        List<ReportModel.Fact> facts = new ArrayList<>();
        facts.add(new ReportModel.Fact(
                "Server", first.serverUrl() + (first.embeddedServer() ? " (embedded, started by the client)" : "")));
        var c = first.config().workload();
        facts.add(new ReportModel.Fact(
                "Plan",
                String.format(
                        L,
                        "%s, -s %,d -l %d -m %d, transport %s%s",
                        first.plan().planName(),
                        c.skiers(),
                        c.lifts(),
                        c.meanRuns(),
                        first.config().target().transport().cliName(),
                        c.seed() == null ? "" : ", seed " + c.seed())));
        Baseline.Result base = first.baseline();
        if (base == null) {
            facts.add(new ReportModel.Fact("Baseline", "skipped (--baseline 0), so no Little's-law prediction"));
            return facts;
        }
        facts.add(new ReportModel.Fact(
                "Baseline (Little's law W)",
                String.format(
                        L,
                        "%,d requests from 1 thread%s, mean latency W = %.3f ms%s%s",
                        base.successful() + base.failed(),
                        base.warmupRequests() > 0
                                ? String.format(L, " after %,d warm-up requests", base.warmupRequests())
                                : "",
                        base.meanLatencyNanos() / 1e6,
                        modelInputs(first.model()),
                        base.stopped() ? " (stopped early)" : "")));
        return facts;
    }

    /** The model's inputs as the prediction used them, never re-derived, so header and tables agree. */
    private static String modelInputs(Prediction model) {
        if (model == null) {
            return "";
        }
        Prediction.Network n = model.network();
        return String.format(
                L,
                "; model: CPU per request under load D = %.1f us (%s; from: %s), C = %d cores, delay Z = %.3f ms",
                n.cpuNanosPerRequest() / 1e3,
                n.scope().label(),
                n.source(),
                n.cores(),
                n.delayNanos() / 1e6);
    }

    /** The section of one run, built once from its output and its time buckets. */
    public static ReportModel.Run run(RunOutput o, TimeBuckets buckets) {
        RunReport rep = o.report();
        RunSummary s = rep.summary();
        List<ReportModel.FileRef> files = List.of(
                new ReportModel.FileRef(
                        o.csv().file(),
                        "requests.csv",
                        String.format(L, "(%,d rows)", o.csv().rowsWritten())),
                new ReportModel.FileRef(o.hlog(), "histogram log missing", ""));
        List<String> notes = new ArrayList<>();
        String cpu = VerboseSummary.cpu(rep);
        if (cpu != null) {
            notes.add(cpu);
        }
        List<String> problems = new ArrayList<>();
        s.problems()
                .forEach(p -> problems.add("PROBLEM: " + p.lines().findFirst().orElse(p)));
        o.problems().forEach(p -> problems.add("PROBLEM (instrumentation): " + p));
        return new ReportModel.Run(
                o.dir().getFileName().toString(),
                String.format(L, "Run: %d threads%s", s.threads(), s.stopped() ? " (STOPPED, partial)" : ""),
                s,
                files,
                List.of(),
                checks(o),
                notes,
                problems,
                TheoryTable.of(rep),
                RunTables.openModel(rep.result()),
                Timeline.of(buckets, rep.result()),
                PercentileCurves.of(o.metrics()),
                o.charts(),
                null,
                String.format(L, "Statistics and charts generated in %.3f s after the run.", o.reportNanos() / 1e9));
    }

    private static List<ReportModel.Check> checks(RunOutput o) {
        Reconciliation c = o.report().reconciliation();
        List<ReportModel.Check> checks = new ArrayList<>();
        checks.add(new ReportModel.Check(
                String.format(L, "planned %,d = successful + failed + not sent", c.planned()), c.clientBalanced()));
        if (c.serverChecked()) {
            checks.add(new ReportModel.Check(
                    String.format(
                            L,
                            "server stored %,d rides during the run (successful %,d)",
                            c.serverDelta(),
                            c.successful()),
                    c.serverDelta() == c.successful()));
        } else {
            checks.add(new ReportModel.Check("server count not checked (" + c.serverNote() + ")", null));
        }
        checks.add(new ReportModel.Check(
                String.format(L, "CSV rows %,d = attempts %,d", o.csv().rowsWritten(), o.attempts()), o.rowsMatch()));
        checks.add(new ReportModel.Check(
                String.format(L, "histogram values %,d", o.metrics().recordedAttempts()), o.histogramsMatch()));
        return checks;
    }

    /** The sweep across {@code outputs}: a row per run and Little's law's two predictions. */
    static ReportModel.Sweep sweep(List<RunOutput> outputs, List<ChartFile> charts) {
        int n = outputs.size();
        List<RunTables.SweepRow> rows = new ArrayList<>(n);
        double[][] pred = new double[4][n];
        for (double[] a : pred) {
            Arrays.fill(a, Double.NaN);
        }
        String caveat = "";
        for (int i = 0; i < n; i++) {
            RunTables.SweepRow row = RunTables.SweepRow.of(outputs.get(i).report());
            TheoryTable t = row.theory();
            Prediction bp = t == null ? null : t.model();
            if (bp != null && !bp.network().scope().caveat().isEmpty()) {
                caveat = " (here " + bp.network().scope().caveat() + ")";
            }
            if (t != null) {
                pred[0][i] = t.naive().throughputPerSecond();
                pred[1][i] = t.naive().wallNanos() / 1e9;
            }
            if (bp != null) {
                pred[2][i] = bp.throughputPerSecond();
                pred[3][i] = bp.wallNanos() / 1e9;
            }
            rows.add(row);
        }
        List<ReportModel.Predicted> predictions = List.of(
                new ReportModel.Predicted("naive N / W", pred[0], pred[1]),
                new ReportModel.Predicted("model (MVA)", pred[2], pred[3]));
        return new ReportModel.Sweep(rows, predictions, caveat, charts);
    }
}
