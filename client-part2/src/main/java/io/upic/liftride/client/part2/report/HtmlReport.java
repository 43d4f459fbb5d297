package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.part2.chart.ChartStyle;
import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.html.ChartSpec;
import io.upic.liftride.client.part2.html.ChartSpec.Line;
import io.upic.liftride.client.part2.html.Html;
import io.upic.liftride.client.part2.html.HtmlPage;
import io.upic.liftride.client.part2.metrics.Timeline;
import io.upic.liftride.client.plan.Ramp;
import io.upic.liftride.client.report.BriefSummary;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunTables;
import io.upic.liftride.client.report.Table;
import io.upic.liftride.client.report.TheoryTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link ReportModel} as {@code report.html}: one self-contained page ({@link HtmlPage}) with
 * report.md's sections and interactive charts. Headline numbers carry {@code data-metric} keys named as in
 * {@code summary.json}. Only formats. Stateless.
 */
public final class HtmlReport {

    public static final String FILE = "report.html";

    private static final Locale L = Locale.US;
    static final String BLUE = "#1f77b4";
    static final String ORANGE = "#ff7f0e";
    static final String GREEN = "#2ca02c";
    static final String RED = "#d62728";
    static final String PURPLE = "#9467bd";
    static final String GREY = "#6e6e6e";
    static final String TEAL = "#17becf";
    static final String BROWN = "#8c564b";
    private static final String DARK = "#333333";
    private static final String[] CAUSES = {RED, ORANGE, BROWN, GREY, PURPLE, TEAL};

    private HtmlReport() {}

    /** Writes the page of {@code model} into {@code dir}; returns its path. */
    public static Path write(Path dir, ReportModel model) throws IOException {
        return page(dir, model).write(dir.resolve(FILE));
    }

    /** The page of {@code model}, links relative to {@code dir}. */
    public static HtmlPage page(Path dir, ReportModel model) {
        ReportModel.Header h = model.header();
        HtmlPage page = new HtmlPage(h.title());
        page.heading(1, h.title(), null);
        verdict(page, model.runs());
        facts(
                page,
                "<div><span>Command:</span> <code>" + Html.escape(h.command())
                        + "</code></div><div><span>Generated:</span> " + Html.escape(h.generatedAt()) + "</div>",
                h.facts());
        h.intro().forEach(p -> {
            if (h.stopped()) {
                page.warning(p);
            } else {
                page.paragraph(p);
            }
        });
        if (model.runs().size() > 1) {
            StringBuilder nav = new StringBuilder("<nav>");
            model.runs()
                    .forEach(r -> nav.append("<a href=\"#")
                            .append(Html.escape(r.name()))
                            .append("\">")
                            .append(Html.escape(r.heading()))
                            .append("</a>"));
            page.html(nav.append("</nav>").toString());
        }
        if (model.sweep() != null) {
            sweep(page, dir, model.sweep(), model.runs());
        }
        for (int i = 0; i < model.runs().size(); i++) {
            run(page, dir, model.runs().get(i), "run" + (i + 1));
        }
        page.heading(2, "Definitions", "definitions");
        page.list(MarkdownReport.definitions());
        return page;
    }

    /** Labelled lines in one block, after {@code lead} (markup, escaped). */
    private static void facts(HtmlPage page, String lead, List<ReportModel.Fact> facts) {
        StringBuilder b = new StringBuilder("<div class=\"facts\">").append(lead);
        facts.forEach(f -> b.append("<div><span>")
                .append(Html.escape(f.label()))
                .append(":</span> ")
                .append(Html.escape(f.value()))
                .append("</div>"));
        page.html(b.append("</div>").toString());
    }

    private static void sweep(HtmlPage page, Path dir, ReportModel.Sweep sweep, List<ReportModel.Run> runs) {
        page.heading(2, "Sweep", "sweep");
        page.heading(3, "Throughput and wall time, measured and predicted", null);
        table(page, RunTables.sweep(sweep.rows()));
        page.paragraph(MarkdownReport.sweepNote(sweep.caveat()));
        page.paragraph(MarkdownReport.WHY_NAIVE_MISSES);
        page.heading(3, "Latency and concurrency", null);
        table(page, ReportTables.sweepLatency(sweep));
        int n = sweep.rows().size();
        double[] threads = new double[n];
        double[] x = new double[n];
        double[] wall = new double[n];
        for (int i = 0; i < n; i++) {
            RunSummary r = sweep.rows().get(i).summary();
            threads[i] = r.threads();
            x[i] = r.throughput();
            wall[i] = r.wallSeconds();
        }
        List<Line> xLines = new ArrayList<>(List.of(Line.solid("measured", BLUE, x)));
        List<Line> wLines = new ArrayList<>(List.of(Line.solid("measured", BLUE, wall)));
        String[] colors = {ORANGE, GREEN, PURPLE, BROWN};
        for (int k = 0; k < sweep.predictions().size(); k++) {
            ReportModel.Predicted p = sweep.predictions().get(k);
            xLines.add(Line.dashed("predicted: " + p.name(), colors[k % colors.length], p.throughput()));
            wLines.add(Line.dashed("predicted: " + p.name(), colors[k % colors.length], p.wallSeconds()));
        }
        page.chart(new ChartSpec(
                "sweep-throughput",
                "Throughput by thread count, measured and predicted (log scale, values at the points)",
                "threads",
                "requests per second",
                ChartSpec.XAxis.THREADS,
                ChartSpec.YAxis.LOG,
                threads,
                xLines,
                List.of()));
        page.chart(new ChartSpec(
                "sweep-wall",
                "Wall time by thread count, measured and predicted (log scale, values at the points)",
                "threads",
                "wall time (s)",
                ChartSpec.XAxis.THREADS,
                ChartSpec.YAxis.LOG,
                threads,
                wLines,
                List.of()));
        links(page, dir, sweep.charts());
    }

    private static void run(HtmlPage page, Path dir, ReportModel.Run run, String chartId) {
        page.heading(2, run.heading(), run.name());
        run.warnings().forEach(page::warning);
        page.metrics(run.name(), headline(run));
        files(page, dir, run.files());
        if (run.shards() != null) {
            table(page, ReportTables.shards(run.shards()));
            page.paragraph(MarkdownReport.overlapText(run.shards()));
        } else {
            table(page, RunTables.account(run.summary()));
        }
        if (!run.summary().failuresByCause().isEmpty()) {
            page.paragraph("Failed requests by cause: "
                    + BriefSummary.causes(run.summary().failuresByCause()));
        }
        checks(page, run);
        timeCharts(page, run, chartId);
        page.heading(3, "Latency (ms)", null);
        table(page, ReportTables.latency(run.summary()));
        page.chart(percentiles(run, chartId));
        Table open = OpenModelReport.table(run);
        if (open != null) {
            page.heading(3, OpenModelReport.heading(run), null);
            table(page, open);
            OpenModelReport.shortfalls(run).forEach(page::warning);
            page.paragraph(OpenModelReport.NOTE);
        }
        Table operations = ReportTables.operations(run);
        if (operations != null) {
            page.heading(3, "Operations (--mix)", null);
            table(page, operations);
            page.paragraph(MarkdownReport.OPERATIONS_NOTE);
        }
        page.heading(3, "Phases and Little's law", null);
        table(page, RunTables.phases(run.summary()));
        theory(page, run.theory());
        links(page, dir, run.charts());
        if (run.generated() != null) {
            page.paragraph(run.generated());
        }
    }

    /** The run's headline numbers, keyed as in summary.json. */
    static List<HtmlPage.Metric> headline(ReportModel.Run run) {
        RunSummary r = run.summary();
        RunSummary.Latency all = r.latencyMs();
        List<HtmlPage.Metric> m = new ArrayList<>();
        double x = r.throughput();
        String label = run.shards() == null ? "throughput" : "throughput over the whole span";
        m.add(new HtmlPage.Metric("throughput", label, x, String.format(L, "%,.1f req/s", x)));
        if (run.shards() != null && run.shards().overlap()) {
            double o = run.shards().overlapThroughput();
            m.add(new HtmlPage.Metric(
                    "overlapThroughput", "all shards together", o, String.format(L, "%,.1f req/s", o)));
        }
        m.add(new HtmlPage.Metric(
                "wallSeconds", "wall time", r.wallSeconds(), String.format(L, "%.3f s", r.wallSeconds())));
        m.add(count("successful", "successful", r.successful()));
        m.add(count("failed", "failed", r.failed()));
        if (all.p50() != null) {
            m.add(millis("latencyMs.mean", "mean", all.mean()));
            m.add(millis("latencyMs.p50", "p50", all.p50()));
            m.add(millis("latencyMs.p99", "p99", all.p99()));
            m.add(millis("latencyMs.p999", "p99.9", all.p999()));
            m.add(millis("latencyMs.max", "max", all.max()));
        }
        RunSummary.Latency intended = r.latencyFromIntendedMs();
        if (intended != null && intended.p99() != null) {
            m.add(millis("latencyFromIntendedMs.p99", "p99 from intended send", intended.p99()));
        }
        return m;
    }

    private static HtmlPage.Metric count(String key, String label, long n) {
        return new HtmlPage.Metric(key, label, n, String.format(L, "%,d", n));
    }

    private static HtmlPage.Metric millis(String key, String label, double ms) {
        return new HtmlPage.Metric(key, label, ms, String.format(L, "%.3f ms", ms));
    }

    private static void timeCharts(HtmlPage page, ReportModel.Run run, String id) {
        Timeline t = run.timeline();
        List<ChartSpec.Band> bands = new ArrayList<>();
        for (Timeline.Window w : t.phases()) {
            bands.add(new ChartSpec.Band(
                    String.format(L, "%s (%d threads)", w.name(), w.threads()),
                    w.fromSeconds(),
                    w.toSeconds(),
                    phaseColor(run, w.name())));
        }
        String per = t.bucketSeconds() >= 1
                ? String.format(L, "%.0f s", t.bucketSeconds())
                : String.format(L, "%.0f ms", t.bucketSeconds() * 1e3);
        List<Line> lat = new ArrayList<>();
        lat.add(Line.solid("p99", RED, t.p99()));
        lat.add(Line.solid("p90", ORANGE, t.p90()));
        lat.add(Line.solid("median", GREEN, t.p50()));
        lat.add(Line.solid("mean", BLUE, t.mean()));
        lat.add(Line.dashed("max", GREY, t.max()));
        if (t.intendedP99() != null) {
            lat.add(Line.solid("p99 from intended send", PURPLE, t.intendedP99()));
            lat.add(Line.dashed("mean from intended send", BROWN, t.intendedMean()));
        }
        page.chart(time(id + "-latency", "Latency over time (per " + per + " of completion, log scale)", "latency (ms)")
                .yAxis(ChartSpec.YAxis.LOG)
                .build(t, lat, bands));
        List<Line> rates = new ArrayList<>(List.of(Line.solid("completed (201) per s", BLUE, t.okPerSecond())));
        if (run.ramp() != null) {
            rates.add(Line.dashed(
                    "offered per s (--ramp)", RED, offered(Ramp.parse(run.ramp().spec()), t)));
        }
        page.chart(time(id + "-throughput", "Throughput over time (per " + per + ")", "requests per second")
                .build(t, rates, bands));
        activeThreads(page, run, id, bands);
        failures(page, run, id, per, bands);
    }

    /** The rate {@code ramp} offered at each bucket's middle (the ramp starts with the run). */
    private static double[] offered(Ramp ramp, Timeline t) {
        double[] v = new double[t.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = ramp.ratePerSecondAt((long) (t.x()[i] * 1e9));
        }
        return v;
    }

    /** Each phase's active workers over time, in its colour, and their sum. */
    private static void activeThreads(HtmlPage page, ReportModel.Run run, String id, List<ChartSpec.Band> bands) {
        Timeline t = run.timeline();
        if (t.activeThreads().isEmpty()) {
            page.paragraph("Active threads over time: not recorded for this run (a merge of shards keeps no"
                    + " thread's span).");
            return;
        }
        double[] sum = new double[t.size()];
        List<Line> lines = new ArrayList<>();
        for (Timeline.Series s : t.activeThreads()) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += s.values()[i];
            }
            lines.add(Line.solid(s.name(), phaseColor(run, s.name()), s.values()));
        }
        lines.add(0, Line.dashed("all phases", DARK, sum));
        page.chart(time(id + "-threads", "Active threads over time (each phase and their sum)", "threads")
                .build(t, lines, bands));
    }

    /** Failed attempts per second by cause, as points; a sentence instead when none failed. */
    private static void failures(
            HtmlPage page, ReportModel.Run run, String id, String per, List<ChartSpec.Band> bands) {
        Timeline t = run.timeline();
        List<Line> lines = new ArrayList<>();
        for (int k = 0; k < t.failuresByCause().size(); k++) {
            Timeline.Series s = t.failuresByCause().get(k);
            lines.add(new Line(s.name(), CAUSES[k % CAUSES.length], s.values(), false, true));
        }
        if (lines.isEmpty() && run.summary().failed() > 0) {
            lines.add(new Line("failed attempts (all causes)", RED, t.failedPerSecond(), false, true));
        }
        if (lines.isEmpty()) {
            page.paragraph("Failures over time: none, every attempt got a 201.");
            return;
        }
        page.chart(time(id + "-failures", "Failed attempts per second by cause (per " + per + ")", "per second")
                .build(t, lines, bands));
    }

    /** The colour of the phase named {@code name} in {@code run}'s plan, the same on every chart and PNG. */
    private static String phaseColor(ReportModel.Run run, String name) {
        var phases = run.summary().phases();
        for (int k = 0; k < phases.size(); k++) {
            if (phases.get(k).name().equals(name)) {
                return ChartStyle.phaseColor(k);
            }
        }
        return GREY;
    }

    private static TimeChart time(String id, String title, String yLabel) {
        return new TimeChart(id, title, yLabel, ChartSpec.YAxis.LINEAR);
    }

    /** A chart over the run's time, before its lines. */
    private record TimeChart(String id, String title, String yLabel, ChartSpec.YAxis y) {

        TimeChart yAxis(ChartSpec.YAxis axis) {
            return new TimeChart(id, title, yLabel, axis);
        }

        ChartSpec build(Timeline t, List<Line> lines, List<ChartSpec.Band> bands) {
            return new ChartSpec(
                    id,
                    title,
                    "time since the run started (s)",
                    yLabel,
                    ChartSpec.XAxis.SECONDS,
                    y,
                    t.x(),
                    lines,
                    bands);
        }
    }

    private static ChartSpec percentiles(ReportModel.Run run, String id) {
        PercentileCurves pc = run.percentiles();
        List<Line> lines = new ArrayList<>();
        for (PercentileCurves.Curve c : pc.curves()) {
            lines.add(curve(run, c));
        }
        return new ChartSpec(
                id + "-percentiles",
                "Latency by percentile (log scale; phases in their colours)",
                "percentile (each step adds a nine)",
                "latency (ms)",
                ChartSpec.XAxis.NINES,
                ChartSpec.YAxis.LOG,
                pc.nines(),
                lines,
                List.of());
    }

    private static Line curve(ReportModel.Run run, PercentileCurves.Curve c) {
        if (c.name().contains("first attempts")) {
            return Line.dashed(c.name(), BLUE, c.millis());
        }
        if (c.name().contains("intended")) {
            return Line.solid(c.name(), RED, c.millis());
        }
        if (c.name().startsWith("whole run")) {
            return Line.solid(c.name(), DARK, c.millis());
        }
        return Line.solid(c.name(), phaseColor(run, c.name()), c.millis());
    }

    /** The first screen: a line per judgement across the runs, then each run's cells, coloured by status. */
    private static void verdict(HtmlPage page, List<ReportModel.Run> runs) {
        ReportVerdict v = ReportVerdict.of(runs);
        if (v.rows().isEmpty()) {
            return;
        }
        StringBuilder b = new StringBuilder("<section class=\"verdict\" id=\"verdict\">\n<h2>Verdict</h2>\n<ul>");
        badge(b, "Thresholds", v, "thresholds", "held", "none set (--threshold)");
        badge(b, "Server", v, "server reconciliation", "stored exactly the successful requests", "not checked");
        badge(b, "Failures", v, "failed", "none", "-");
        badge(b, "Prediction", v, "model's error", "within 15% of the measured wall time", "none (--baseline 0)");
        b.append("</ul>\n<table class=\"verdict\"><thead><tr><th>run</th>");
        ReportVerdict.COLUMNS.forEach(
                c -> b.append("<th>").append(Html.escape(c)).append("</th>"));
        b.append("</tr></thead>\n<tbody>\n");
        for (ReportVerdict.Row r : v.rows()) {
            b.append("<tr data-scope=\"")
                    .append(Html.escape(r.scope()))
                    .append("\"><td><a href=\"#")
                    .append(Html.escape(r.scope()))
                    .append("\">")
                    .append(Html.escape(r.label()))
                    .append("</a></td>");
            for (ReportVerdict.Cell c : r.cells()) {
                b.append("<td class=\"")
                        .append(statusClass(c.status()))
                        .append("\" data-key=\"")
                        .append(Html.escape(c.key()))
                        .append("\" data-value=\"")
                        .append(Double.isNaN(c.value()) ? "" : Double.toString(c.value()))
                        .append("\">")
                        .append(Html.escape(c.text()))
                        .append("</td>");
            }
            b.append("</tr>\n");
        }
        page.html(b.append("</tbody></table>\n</section>").toString());
    }

    /**
     * One line of the verdict: the worst status of {@code column} over the runs, with the runs that are not OK
     * named, or {@code ok} / {@code none} when every run is OK / has nothing to judge.
     */
    private static void badge(StringBuilder b, String name, ReportVerdict v, String column, String ok, String none) {
        ReportVerdict.Status worst = ReportVerdict.Status.NONE;
        List<String> off = new ArrayList<>();
        int judged = 0;
        for (ReportVerdict.Row r : v.rows()) {
            ReportVerdict.Cell c = r.cell(column);
            if (c.status() != ReportVerdict.Status.NONE) {
                judged++;
            }
            if (c.status() == ReportVerdict.Status.BAD || c.status() == ReportVerdict.Status.WARN) {
                off.add(r.label() + ": " + c.text());
            }
            if (c.status() != ReportVerdict.Status.NONE
                    && (worst == ReportVerdict.Status.NONE || c.status().ordinal() > worst.ordinal())) {
                worst = c.status();
            }
        }
        int n = v.rows().size();
        String text = judged == 0
                ? none
                : off.isEmpty()
                        ? ok + (n == 1 ? "" : judged == n ? " in all " + n + " runs" : " in " + judged + " of " + n)
                        : String.join("; ", off);
        b.append("<li class=\"")
                .append(statusClass(worst))
                .append("\" data-badge=\"")
                .append(Html.escape(column))
                .append("\"><b>")
                .append(Html.escape(name))
                .append("</b> ")
                .append(Html.escape(text))
                .append("</li>");
    }

    private static String statusClass(ReportVerdict.Status s) {
        return "s-" + s.name().toLowerCase(Locale.ROOT);
    }

    private static void checks(HtmlPage page, ReportModel.Run run) {
        StringBuilder b = new StringBuilder("<p>Checks: ");
        for (int i = 0; i < run.checks().size(); i++) {
            ReportModel.Check c = run.checks().get(i);
            b.append(i == 0 ? "" : "; ").append(Html.escape(c.text()));
            if (c.ok() != null) {
                b.append(c.ok() ? ": <span class=\"ok\">OK</span>" : ": <span class=\"bad\">MISMATCH</span>");
            }
        }
        page.html(b.append(".</p>").toString());
        run.notes().forEach(page::paragraph);
        run.problems().forEach(page::warning);
    }

    private static void theory(HtmlPage page, TheoryTable t) {
        if (t == null) {
            page.paragraph(MarkdownReport.NO_THEORY);
            return;
        }
        page.paragraph(t.heading() + ":");
        page.list(t.models());
        table(page, RunTables.theory(t));
        page.paragraph("(" + MarkdownReport.THEORY_NOTE);
    }

    private static void files(HtmlPage page, Path dir, List<ReportModel.FileRef> files) {
        if (files.isEmpty()) {
            return;
        }
        StringBuilder b = new StringBuilder("<p>Files: ");
        for (int i = 0; i < files.size(); i++) {
            ReportModel.FileRef f = files.get(i);
            b.append(i == 0 ? "" : ", ");
            if (f.file() == null) {
                b.append(Html.escape(f.name()));
            } else {
                b.append(link(dir, f.file(), f.file().getFileName().toString()));
            }
            b.append(f.note().isEmpty() ? "" : " " + Html.escape(f.note()));
        }
        page.html(b.append("</p>").toString());
    }

    private static void links(HtmlPage page, Path dir, List<ChartFile> charts) {
        if (charts.isEmpty()) {
            return;
        }
        StringBuilder b = new StringBuilder("<p>The same charts as PNG: ");
        for (int i = 0; i < charts.size(); i++) {
            ChartFile f = charts.get(i);
            b.append(i == 0 ? "" : ", ")
                    .append(link(dir, f.file(), f.file().getFileName().toString()));
        }
        page.html(b.append(".</p>").toString());
    }

    private static String link(Path dir, Path file, String text) {
        return "<a href=\"" + Html.escape(MarkdownReport.link(dir, file)) + "\">" + Html.escape(text) + "</a>";
    }

    private static void table(HtmlPage page, Table t) {
        page.table(t.header(), t.right(), t.rows());
    }
}
