package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.html.ChartSpec;
import io.upic.liftride.client.part2.html.ChartSpec.Line;
import io.upic.liftride.client.part2.html.Html;
import io.upic.liftride.client.part2.html.HtmlPage;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.Timeline;
import io.upic.liftride.client.report.SummaryPrinter;
import io.upic.liftride.client.report.TheoryTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link ReportModel} as {@code report.html}: one self-contained page ({@link HtmlPage}) with the same
 * sections as {@code report.md} and interactive charts: latency over time (percentiles, phases marked, with
 * {@code --rate} also from the intended send), throughput over time, the percentile distribution, and for a sweep
 * throughput and wall time by thread count with the predictions. Headline numbers carry {@code data-metric} keys
 * named as in {@code summary.json} ({@code throughput}, {@code wallSeconds}, {@code failed},
 * {@code latencyMs.p99}...). Only formats. Stateless.
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
    private static final String[] PHASES = {TEAL, ORANGE, PURPLE, BROWN};
    private static final String[] CURVES = {GREY, PURPLE, ORANGE, TEAL, GREEN, BROWN, BLUE, RED};

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
        StringBuilder facts = new StringBuilder("<div class=\"facts\">");
        facts.append("<div><span>Command:</span> <code>")
                .append(Html.escape(h.command()))
                .append("</code></div><div><span>Generated:</span> ")
                .append(Html.escape(h.generatedAt()))
                .append("</div>");
        h.facts()
                .forEach(f -> facts.append("<div><span>")
                        .append(Html.escape(f.label()))
                        .append(":</span> ")
                        .append(Html.escape(f.value()))
                        .append("</div>"));
        page.html(facts.append("</div>").toString());
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
            sweep(page, dir, model.sweep());
        }
        for (int i = 0; i < model.runs().size(); i++) {
            run(page, dir, model.runs().get(i), "run" + (i + 1));
        }
        page.heading(2, "Definitions", "definitions");
        page.list(MarkdownReport.definitions());
        return page;
    }

    private static void sweep(HtmlPage page, Path dir, ReportModel.Sweep sweep) {
        page.heading(2, "Sweep", "sweep");
        table(page, ReportTables.sweep(sweep));
        page.paragraph(MarkdownReport.sweepNote(sweep.caveat()));
        page.paragraph(MarkdownReport.WHY_NAIVE_MISSES);
        int n = sweep.rows().size();
        double[] threads = new double[n];
        double[] x = new double[n];
        double[] wall = new double[n];
        for (int i = 0; i < n; i++) {
            ReportModel.SweepRow r = sweep.rows().get(i);
            threads[i] = r.threads();
            x[i] = r.throughput();
            wall[i] = r.wallNanos() / 1e9;
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
                "Throughput by thread count, measured and predicted",
                "threads",
                "requests per second",
                ChartSpec.XAxis.THREADS,
                threads,
                xLines,
                List.of()));
        page.chart(new ChartSpec(
                "sweep-wall",
                "Wall time by thread count, measured and predicted",
                "threads",
                "wall time (s)",
                ChartSpec.XAxis.THREADS,
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
            table(page, ReportTables.account(run.result()));
        }
        if (!run.result().failuresByCause().isEmpty()) {
            page.paragraph("Failed requests by cause: "
                    + SummaryPrinter.causes(run.result().failuresByCause()));
        }
        checks(page, run);
        timeCharts(page, run, chartId);
        page.heading(3, "Latency (ms)", null);
        table(page, ReportTables.latency(run));
        page.chart(percentiles(run, chartId));
        ReportTables.Table open = OpenModelReport.table(run);
        if (open != null) {
            page.heading(3, OpenModelReport.heading(run), null);
            table(page, open);
            page.paragraph(OpenModelReport.NOTE);
        }
        page.heading(3, "Phases and Little's law", null);
        table(page, ReportTables.phases(run));
        theory(page, run.theory());
        links(page, dir, run.charts());
        if (run.generated() != null) {
            page.paragraph(run.generated());
        }
    }

    /** The run's headline numbers, keyed as in summary.json. */
    static List<HtmlPage.Metric> headline(ReportModel.Run run) {
        var r = run.result();
        LatencyStats all = run.metrics().run().all();
        List<HtmlPage.Metric> m = new ArrayList<>();
        double x = r.throughputPerSecond();
        String label = run.shards() == null ? "throughput" : "throughput over the whole span";
        m.add(new HtmlPage.Metric("throughput", label, x, String.format(L, "%,.1f req/s", x)));
        if (run.shards() != null && run.shards().overlap()) {
            double o = run.shards().overlapThroughput();
            m.add(new HtmlPage.Metric(
                    "overlapThroughput", "all shards together", o, String.format(L, "%,.1f req/s", o)));
        }
        double wall = r.wallNanos() / 1e9;
        m.add(new HtmlPage.Metric("wallSeconds", "wall time", wall, String.format(L, "%.3f s", wall)));
        m.add(count("successful", "successful", r.requests().successful()));
        m.add(count("failed", "failed", r.requests().failed()));
        if (all.count() > 0) {
            m.add(millis("latencyMs.mean", "mean", all.meanMillis()));
            m.add(millis("latencyMs.p50", "p50", all.p50Millis()));
            m.add(millis("latencyMs.p99", "p99", all.p99Millis()));
            m.add(millis("latencyMs.p999", "p99.9", all.p999Millis()));
            m.add(millis("latencyMs.max", "max", all.maxMillis()));
        }
        LatencyStats intended = run.metrics().run().fromIntended();
        if (intended != null && intended.count() > 0) {
            m.add(millis("latencyFromIntendedMs.p99", "p99 from intended send", intended.p99Millis()));
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
        for (int k = 0; k < t.phases().size(); k++) {
            Timeline.Window w = t.phases().get(k);
            bands.add(new ChartSpec.Band(w.name(), w.fromSeconds(), w.toSeconds(), PHASES[k % PHASES.length]));
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
        String xLabel = "time since the run started (s)";
        page.chart(new ChartSpec(
                id + "-latency",
                "Latency over time (per " + per + " of completion, phases shaded)",
                xLabel,
                "latency (ms)",
                ChartSpec.XAxis.SECONDS,
                t.x(),
                lat,
                bands));
        page.chart(new ChartSpec(
                id + "-throughput",
                "Throughput over time (per " + per + ")",
                xLabel,
                "per second",
                ChartSpec.XAxis.SECONDS,
                t.x(),
                List.of(
                        Line.solid("completed (201) per s", BLUE, t.okPerSecond()),
                        new Line("failed attempts per s", RED, t.failedPerSecond(), false, true)),
                bands));
    }

    private static ChartSpec percentiles(ReportModel.Run run, String id) {
        PercentileCurves pc = run.percentiles();
        List<Line> lines = new ArrayList<>();
        for (int k = 0; k < pc.curves().size(); k++) {
            PercentileCurves.Curve c = pc.curves().get(k);
            lines.add(Line.solid(c.name(), CURVES[k % CURVES.length], c.millis()));
        }
        return new ChartSpec(
                id + "-percentiles",
                "Latency by percentile",
                "percentile (each step adds a nine)",
                "latency (ms)",
                ChartSpec.XAxis.NINES,
                pc.nines(),
                lines,
                List.of());
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
        table(page, ReportTables.theory(t));
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

    private static void table(HtmlPage page, ReportTables.Table t) {
        page.table(t.header(), t.right(), t.rows());
    }
}
