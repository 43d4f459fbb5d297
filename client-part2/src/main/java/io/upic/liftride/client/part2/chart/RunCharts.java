package io.upic.liftride.client.part2.chart;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.metrics.Timeline;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.AbstractHistogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The three charts of one run, drawn from the time buckets and the merged histograms (never
 * from the CSV): latency over time, throughput over time, and the latency percentile distribution.
 * Static and thread-safe.
 */
public final class RunCharts {

    public static final String LATENCY_OVER_TIME = "latency-over-time.png";
    public static final String THROUGHPUT_OVER_TIME = "throughput-over-time.png";
    public static final String LATENCY_PERCENTILES = "latency-percentiles.png";

    private static final int POINTS_PER_DECADE = 40;

    private RunCharts() {}

    /** A written chart: its file and a one-line description for the report. */
    public record ChartFile(Path file, String title) {}

    /** Writes the three charts into {@code dir}; returns them in order. */
    public static List<ChartFile> write(
            Path dir, String runLabel, RunResult result, TimeBuckets seconds, RunMetrics metrics) throws IOException {
        List<ChartFile> files = new ArrayList<>(3);
        Timeline t = Timeline.of(seconds, result);
        XYChart latency = latencyOverTime(runLabel, result, t);
        ChartStyle.savePng(latency, dir.resolve(LATENCY_OVER_TIME));
        files.add(new ChartFile(dir.resolve(LATENCY_OVER_TIME), latency.getTitle()));
        XYChart throughput = throughputOverTime(runLabel, result, t, seconds.totalFailed());
        ChartStyle.savePng(throughput, dir.resolve(THROUGHPUT_OVER_TIME));
        files.add(new ChartFile(dir.resolve(THROUGHPUT_OVER_TIME), throughput.getTitle()));
        XYChart percentiles = percentiles(runLabel, metrics);
        ChartStyle.savePng(percentiles, dir.resolve(LATENCY_PERCENTILES));
        files.add(new ChartFile(dir.resolve(LATENCY_PERCENTILES), percentiles.getTitle()));
        return files;
    }

    /** Mean, median and p99 latency per time bucket (and from the intended send under --rate), phases shaded. */
    public static XYChart latencyOverTime(String runLabel, RunResult result, Timeline t) {
        XYChart c = ChartStyle.xy("Latency over time: " + runLabel, "time since the run started (s)", "latency (ms)");
        boolean[] has = new boolean[t.size()];
        double top = 0;
        for (int i = 0; i < t.size(); i++) {
            has[i] = !Double.isNaN(t.mean()[i]);
            if (has[i]) {
                top = Math.max(top, Math.max(t.p99()[i], t.mean()[i]));
                if (t.intendedP99() != null) {
                    top = Math.max(top, Math.max(nanToZero(t.intendedP99()[i]), nanToZero(t.intendedMean()[i])));
                }
            }
        }
        top = phaseStrips(c, result, niceTop(top * 1.08));
        double[] x = pick(t.x(), has);
        if (x.length > 0) {
            line(c, "p99", x, pick(t.p99(), has), ChartStyle.RED, ChartStyle.SOLID);
            line(c, "mean", x, pick(t.mean(), has), ChartStyle.BLUE, ChartStyle.THICK);
            line(c, "median (p50)", x, pick(t.p50(), has), ChartStyle.GREEN, ChartStyle.DASHED);
            if (t.intendedP99() != null) { // the open model: the same latency measured from when each request was due
                line(c, "p99 from intended send", x, pick(t.intendedP99(), has), ChartStyle.ORANGE, ChartStyle.THICK);
                line(
                        c,
                        "mean from intended send",
                        x,
                        pick(t.intendedMean(), has),
                        ChartStyle.PURPLE,
                        ChartStyle.DASHED);
            }
        }
        timeAxis(c, result);
        c.getStyler().setYAxisMin(0.0).setYAxisMax(top);
        c.getStyler().setYAxisDecimalPattern(top >= 20 ? "#,##0" : "#,##0.0#");
        return c;
    }

    /** The values of {@code v} where {@code has} is true. */
    private static double[] pick(double[] v, boolean[] has) {
        double[] out = new double[v.length];
        int m = 0;
        for (int i = 0; i < v.length; i++) {
            if (has[i]) {
                out[m++] = v[i];
            }
        }
        return trim(out, m);
    }

    private static double nanToZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    /** Completed requests (201s) per second of each time bucket, failed attempts marked, phases shaded. */
    public static XYChart throughputOverTime(String runLabel, RunResult result, Timeline t, long failedTotal) {
        String failedNote =
                failedTotal == 0 ? "no failed attempts" : String.format(Locale.US, "%,d failed attempts", failedTotal);
        XYChart c = ChartStyle.xy(
                "Throughput over time: " + runLabel + ", " + failedNote,
                "time since the run started (s)",
                "requests per second");
        List<Double> fx = new ArrayList<>();
        List<Double> fy = new ArrayList<>();
        double top = 0;
        for (int i = 0; i < t.size(); i++) {
            top = Math.max(top, t.okPerSecond()[i]);
            if (!Double.isNaN(t.failedPerSecond()[i])) {
                fx.add(t.x()[i]);
                fy.add(t.failedPerSecond()[i]);
                top = Math.max(top, t.failedPerSecond()[i]);
            }
        }
        top = phaseStrips(c, result, niceTop(top * 1.08));
        if (t.size() > 0) {
            line(c, "completed (201) per s", t.x(), t.okPerSecond(), ChartStyle.BLUE, ChartStyle.THICK);
        }
        if (!fx.isEmpty()) {
            XYSeries f = c.addSeries("failed attempts per s", fx, fy);
            f.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            f.setMarker(SeriesMarkers.CROSS);
            f.setMarkerColor(ChartStyle.RED);
            c.getStyler().setMarkerSize(13); // only this series has markers: make the failures hard to miss
        }
        timeAxis(c, result);
        c.getStyler().setYAxisMin(0.0).setYAxisMax(top);
        c.getStyler().setYAxisDecimalPattern("#,##0");
        return c;
    }

    /** HdrHistogram-style percentile plot: the whole run and each phase (and first attempts if there were retries). */
    public static XYChart percentiles(String runLabel, RunMetrics metrics) {
        XYChart c = ChartStyle.xy(
                "Latency by percentile: " + runLabel, "percentile (log scale: each step adds a nine)", "latency (ms)");
        ScopeStats run = metrics.run();
        double xMax = 10;
        double top = 0;
        if (run.all().attempts() > 0) {
            xMax = curve(c, "whole run, all attempts", run.allHistogram(), ChartStyle.GREY, ChartStyle.THICK);
            top = run.all().max();
            if (run.first().attempts() != run.all().attempts() && run.first().attempts() > 0) {
                curve(c, "whole run, first attempts", run.firstHistogram(), ChartStyle.BLUE, ChartStyle.DASHED);
            }
            int k = 0;
            for (ScopeStats p : metrics.phases()) {
                // the same colour per phase as in the time charts' phase strips
                if (p.all().attempts() > 0) {
                    curve(
                            c,
                            p.name(),
                            p.allHistogram(),
                            ChartStyle.PHASES[k % ChartStyle.PHASES.length],
                            ChartStyle.SOLID);
                }
                k++;
            }
        }
        var s = c.getStyler();
        // XChart's log axis ignores a label formatter (and loops on one), so the axis is linear in
        // "nines", log10(1 / (1 - p)), with integer ticks labelled as percentiles.
        double decades = Math.max(1, Math.ceil(Math.log10(xMax) - 1e-9));
        s.setXAxisMin(0.0);
        s.setXAxisMax(decades);
        s.setXAxisTickMarkSpacingHint((int) Math.round(1.1 * (ChartStyle.WIDTH - 160) / decades));
        s.setxAxisTickLabelsFormattingFunction(RunCharts::ninesLabel);
        s.setYAxisMin(0.0);
        s.setYAxisMax(niceTop(Math.max(top, 0.001) * 1.08));
        s.setYAxisDecimalPattern(top >= 20 ? "#,##0" : "#,##0.0");
        s.setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        s.setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Vertical);
        s.setLegendBorderColor(new Color(200, 200, 200));
        return c;
    }

    private static double curve(XYChart c, String name, AbstractHistogram h, Color color, BasicStroke stroke) {
        PercentileCurve pc = PercentileCurve.of(h, POINTS_PER_DECADE);
        double[] x = pc.x();
        double[] y = pc.millis();
        if (x.length == 1) { // a single attempt: draw it as a flat segment so it shows
            x = new double[] {1, 10};
            y = new double[] {y[0], y[0]};
        }
        double[] nines = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            nines[i] = Math.log10(x[i]);
        }
        line(c, name, nines, y, color, stroke);
        return x[x.length - 1];
    }

    /** The tick label at {@code nines} = log10(1 / (1 - p)): "0%", "90%", "99%"...; none between whole nines. */
    static String ninesLabel(double nines) {
        double r = Math.rint(nines);
        if (Math.abs(nines - r) > 1e-6 || r < 0) {
            return "";
        }
        return PercentileCurve.label(Math.pow(10, r));
    }

    private static void line(XYChart c, String name, double[] x, double[] y, Color color, BasicStroke stroke) {
        XYSeries s = c.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(stroke);
    }

    /**
     * The phases as stacked coloured strips above the data; returns the y-axis maximum that keeps the data (up
     * to {@code dataTop}) below them.
     */
    static double phaseStrips(XYChart c, RunResult result, double dataTop) {
        int n = result.phases().size();
        double strip = 0.05; // height of a strip, as a share of the axis
        double gap = 0.015;
        double yMax = dataTop / (1 - n * (strip + gap) - 0.02);
        int k = 0;
        for (PhaseResult p : result.phases()) {
            Color solid = ChartStyle.PHASES[k % ChartStyle.PHASES.length];
            double hi = yMax * (1 - gap - k * (strip + gap));
            double lo = hi - yMax * strip;
            k++;
            if (!p.started() || p.threads() == 0) { // not started, or a shard's empty share of the phase
                continue;
            }
            double start = (p.startNanos() - result.startNanos()) / 1e9;
            double end = (p.endNanos() - result.startNanos()) / 1e9;
            String name = String.format(Locale.US, "%s phase, %d threads", p.name(), p.threads());
            XYSeries s = c.addSeries(name, new double[] {start, start, end, end}, new double[] {lo, hi, hi, lo});
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
            s.setFillColor(new Color(solid.getRed(), solid.getGreen(), solid.getBlue(), 110));
            s.setLineColor(solid);
            s.setLineStyle(SeriesLines.NONE);
            s.setMarker(SeriesMarkers.NONE);
            // the boundaries carried down through the data as thin dotted lines
            for (double x : new double[] {start, end}) {
                XYSeries b = c.addSeries(
                        name + (x == start ? " starts" : " ends"), new double[] {x, x}, new double[] {0, lo});
                b.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                b.setLineColor(solid);
                b.setLineStyle(ChartStyle.DOTTED);
                b.setMarker(SeriesMarkers.NONE);
                b.setShowInLegend(false);
            }
        }
        return yMax;
    }

    private static void timeAxis(XYChart c, RunResult result) {
        // a vertical legend on the right: a horizontal one below does not wrap and would be cut off
        c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
        c.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Vertical);
        double wall = Math.max(1e-3, result.wallNanos() / 1e9);
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setXAxisMax(wall);
        c.getStyler().setXAxisDecimalPattern(wall >= 20 ? "#,##0" : "#,##0.#");
    }

    /** A round axis maximum at or above {@code v}: 1, 2, 2.5 or 5 times a power of ten. */
    static double niceTop(double v) {
        if (!(v > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double f : new double[] {1, 1.2, 1.5, 1.8, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (f * p >= v) {
                return f * p;
            }
        }
        return 10 * p;
    }

    private static double[] trim(double[] a, int n) {
        return n == a.length ? a : java.util.Arrays.copyOf(a, n);
    }
}
