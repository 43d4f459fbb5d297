package io.upic.liftride.client.part2;

import io.upic.liftride.client.Console;
import io.upic.liftride.client.RunHooks;
import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.chart.RunCharts;
import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.chart.SweepCharts;
import io.upic.liftride.client.part2.metrics.HistogramMetrics;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.report.ConsoleReport;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.HtmlReport;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.part2.report.ReportModel;
import io.upic.liftride.client.part2.report.ReportModels;
import io.upic.liftride.client.part2.report.RunOutput;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.prediction.CpuScope;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.threshold.MetricSource;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * client-part2's extension of client-part1's {@link Console}: a {@link RunRecording} per run, then its statistics,
 * histogram log, charts and {@code report.md}; the output folder's layout is in docs/reports.md. Every hook runs
 * on the thread that called {@link Console#run} ({@link RunHooks}); not thread-safe otherwise.
 */
final class Instrumentation extends Console {

    private final Path outDir;
    private final String command;
    private final int plannedRuns;
    private final List<RunOutput> outputs = new ArrayList<>();
    /** Each run's report section, built once right after the run. */
    private final List<ReportModel.Run> sections = new ArrayList<>();

    private long htmlNanos;
    private long htmlBytes;
    private final Set<String> usedNames = new HashSet<>();
    private final List<String> failures = new ArrayList<>();
    private List<ChartFile> sweepCharts = List.of();
    private RunRecording current;

    /**
     * @param terminal whether stderr is a terminal (see {@link Console})
     * @param verbose  whether the console gets the statistics in full (--verbose), or a line per run
     */
    Instrumentation(
            Path outDir,
            PrintStream out,
            PrintStream err,
            boolean terminal,
            boolean verbose,
            String command,
            int plannedRuns) {
        super(out, err, terminal, verbose);
        this.outDir = outDir;
        this.command = command;
        this.plannedRuns = plannedRuns;
    }

    @Override
    public AttemptListener listener(RunConfig config, LoadPlan plan) {
        current = new RunRecording(
                outDir.resolve(runDirName(config.workload().threads())),
                plan,
                Files::newOutputStream,
                this::writerFailed,
                config.workload().mix() != null);
        return current;
    }

    /** On the writer's thread: the rows from here on are lost, so the run (and a sweep's next runs) would be wasted. */
    private void writerFailed(Throwable failure) {
        err.println("PROBLEM (instrumentation): the CSV writer stopped: " + failure + "; stopping the run");
        err.flush();
        stop();
    }

    private String runDirName(int threads) {
        String base = "t" + threads;
        String name = base;
        for (int i = 2; !usedNames.add(name); i++) {
            name = base + "-" + i;
        }
        return name;
    }

    /** The histograms' metrics once the run's recording merged them; client-part1's counters otherwise. */
    @Override
    public MetricSource metrics(RunReport report) {
        RunMetrics m = current == null ? null : current.metrics();
        return m == null ? super.metrics(report) : new HistogramMetrics(m, report.result());
    }

    @Override
    public String clientName() {
        return "client-part2";
    }

    @Override
    public void afterRun(RunReport report) {
        super.afterRun(report);
        long t0 = System.nanoTime();
        RunRecording rec = current;
        current = null;
        if (rec == null) {
            return;
        }
        writeSummary(rec.dir(), report);
        List<String> problems = new ArrayList<>(rec.problems());
        RunMetrics metrics = rec.metrics();
        if (metrics == null || rec.csv() == null) {
            failures.add("run with " + report.summary().threads() + " threads: no statistics (" + problems + ")");
            err.println("PROBLEM (instrumentation): no statistics for this run: " + problems);
            return;
        }
        RunResult result = report.result();
        Path hlog = null;
        try {
            hlog = rec.dir().resolve(HdrLog.FILE);
            HdrLog.write(hlog, result, metrics);
        } catch (IOException | RuntimeException e) {
            hlog = null;
            problems.add("cannot write the histogram log: " + e);
        }
        try {
            HdrLog.writePerBucket(
                    rec.dir().resolve(HdrLog.PER_BUCKET_FILE),
                    result.startEpochMillis(),
                    rec.seconds(),
                    result.planName());
        } catch (IOException | RuntimeException e) {
            problems.add("cannot write " + HdrLog.PER_BUCKET_FILE + ": " + e);
        }
        List<ChartFile> charts = List.of();
        try {
            charts = RunCharts.write(rec.dir(), runLabel(report), result, rec.seconds(), metrics);
        } catch (IOException | RuntimeException e) {
            problems.add("cannot draw the charts: " + e);
        }
        RunOutput o = new RunOutput(
                rec.dir(),
                report,
                metrics,
                rec.csv(),
                charts,
                hlog,
                rec.mergeNanos() + System.nanoTime() - t0,
                problems);
        outputs.add(o);
        ReportModel.Run section = ReportModels.run(o, rec.seconds());
        sections.add(section);
        if (!o.ok()) {
            failures.add("run with " + result.numThreads() + " threads: "
                    + (o.rowsMatch() ? "" : "CSV rows != attempts; ")
                    + (o.histogramsMatch() ? "" : "histogram values != attempts; ") + String.join("; ", problems));
        }
        ConsoleReport.printRun(out, o, section, outDir, verbose);
        writeReport(false); // after every run, so an interrupted sweep still leaves a report of what ran
    }

    /** The run folder's summary.json, first, so that it is there even when the statistics below fail. */
    private void writeSummary(Path dir, RunReport report) {
        if (report.summary() == null) {
            return;
        }
        try {
            SummaryJson.write(dir.resolve(SummaryJson.FILE), List.of(report.summary()));
        } catch (IOException | RuntimeException e) {
            failures.add("cannot write " + SummaryJson.FILE + ": " + e);
            err.println("PROBLEM (instrumentation): cannot write " + SummaryJson.FILE + ": " + e);
        }
    }

    @Override
    public void afterAll(List<RunReport> reports) {
        if (outputs.size() > 1) {
            try {
                sweepCharts = SweepCharts.write(outDir, sweepLabel(), sweepPoints());
            } catch (IOException | RuntimeException e) {
                failures.add("cannot draw the sweep charts: " + e);
                err.println("PROBLEM (instrumentation): cannot draw the sweep charts: " + e);
            }
        }
        boolean stopped = reports.size() < plannedRuns
                || reports.stream().anyMatch(r -> r.summary().stopped());
        ReportModel model = writeReport(stopped);
        if (verbose && model != null && model.sweep() != null) {
            ConsoleReport.printSweep(out, model.sweep(), outDir);
        }
        if (model != null) {
            out.println();
            out.printf(
                    "Beside it: %s%s and a folder per run%n",
                    MarkdownReport.FILE, sweepCharts.isEmpty() ? "" : ", " + sweepCharts.size() + " sweep charts");
            if (verbose) {
                out.printf(
                        Locale.US, "%s: %,d bytes, rendered in %.1f ms%n", HtmlReport.FILE, htmlBytes, htmlNanos / 1e6);
            }
            out.println("Report: " + outDir.resolve(HtmlReport.FILE));
        }
        out.flush();
    }

    /** Writes report.md and report.html from one model of the runs so far; returns the model, or null. */
    private ReportModel writeReport(boolean stopped) {
        if (outputs.isEmpty()) {
            return null;
        }
        String now = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z", Locale.ROOT));
        ReportModel model;
        try {
            model = ReportModels.of(new ReportModels.Context(command, now, stopped), outputs, sections, sweepCharts);
            MarkdownReport.write(outDir, model);
        } catch (IOException | RuntimeException e) {
            failures.add("cannot write " + MarkdownReport.FILE + ": " + e);
            err.println("PROBLEM (instrumentation): cannot write " + MarkdownReport.FILE + ": " + e);
            return null;
        }
        try {
            long t0 = System.nanoTime();
            Path html = HtmlReport.write(outDir, model);
            htmlNanos = System.nanoTime() - t0;
            htmlBytes = Files.size(html);
        } catch (IOException | RuntimeException e) {
            failures.add("cannot write " + HtmlReport.FILE + ": " + e);
            err.println("PROBLEM (instrumentation): cannot write " + HtmlReport.FILE + ": " + e);
        }
        return model;
    }

    List<SweepCharts.Point> sweepPoints() {
        List<SweepCharts.Point> points = new ArrayList<>(outputs.size());
        for (RunOutput o : outputs) {
            RunResult r = o.report().result();
            Prediction p = o.report().prediction();
            Prediction b = o.report().model();
            RunSummary.Latency l = o.report().summary().latencyMs();
            points.add(new SweepCharts.Point(
                    r.numThreads(),
                    r.wallNanos() / 1e9,
                    p == null ? Double.NaN : p.wallNanos() / 1e9,
                    r.throughputPerSecond(),
                    p == null ? Double.NaN : p.throughputPerSecond(),
                    b == null ? Double.NaN : b.wallNanos() / 1e9,
                    b == null ? Double.NaN : b.throughputPerSecond(),
                    b != null && b.network().scope() == CpuScope.REMOTE_SERVER,
                    nanOrMillis(l.mean()),
                    nanOrMillis(l.p50()),
                    nanOrMillis(l.p99())));
        }
        return points;
    }

    private static double nanOrMillis(Double ms) {
        return ms == null ? Double.NaN : ms;
    }

    private static String runLabel(RunReport report) {
        RunSummary s = report.summary();
        return String.format(
                Locale.US, "%d threads, %,d requests%s", s.threads(), s.planned(), s.stopped() ? " (stopped)" : "");
    }

    private String sweepLabel() {
        RunReport first = outputs.get(0).report();
        return String.format(
                Locale.US,
                "%s, %,d skiers, %d lifts, %d runs",
                first.plan().planName(),
                first.config().workload().skiers(),
                first.config().workload().lifts(),
                first.config().workload().meanRuns());
    }

    /** Whether every run's instrumentation checks passed (rows == attempts, histograms == attempts, files written). */
    boolean ok() {
        return failures.isEmpty();
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    List<RunOutput> outputs() {
        return List.copyOf(outputs);
    }
}
