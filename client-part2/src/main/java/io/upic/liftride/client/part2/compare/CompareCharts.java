package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.part2.chart.ChartStyle;
import io.upic.liftride.client.part2.html.ChartSpec;
import io.upic.liftride.client.part2.html.ChartSpec.Line;
import io.upic.liftride.client.part2.report.PercentileCurves;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * The charts of a comparison, both sides on the same axes: latency over time (p99 solid, median dashed, per time
 * bucket of completion as the runs wrote them), attempts completed per second, and the latency by percentile of
 * each side's runs added up (under {@code --rate} also from the intended send, dashed: the coordinated-omission-free
 * view an open model is run for); baseline runs in blues, candidate runs in reds, the baseline's first run's phases
 * shaded. Runs whose folder holds no histogram logs are left out and named in {@link #notes()}. Immutable by
 * convention.
 *
 * @param charts the charts, empty when no run has its histogram logs
 * @param notes  why a run has no lines
 */
public record CompareCharts(List<ChartSpec> charts, List<String> notes) {

    private static final String[] BASELINE = {"#1f77b4", "#6baed6", "#08519c", "#9ecae1"};
    private static final String[] CANDIDATE = {"#d62728", "#fc8d59", "#99000d", "#fdae6b"};

    public CompareCharts {
        charts = List.copyOf(charts);
        notes = List.copyOf(notes);
    }

    /** One side's runs that have their logs, with the colour and name of each line. */
    private record Drawn(String name, String color, RunSeries series) {}

    /** The charts of {@code c}'s runs. */
    public static CompareCharts of(RunComparison c) {
        List<String> notes = new ArrayList<>();
        List<Drawn> base = drawn(c.baseline(), BASELINE, notes);
        List<Drawn> cand = drawn(c.candidate(), CANDIDATE, notes);
        if (base.isEmpty() && cand.isEmpty()) {
            return new CompareCharts(List.of(), notes);
        }
        List<Drawn> all = new ArrayList<>(base);
        all.addAll(cand);
        // one grid for every run: as coarse as the coarsest run's buckets, as long as the longest run
        double step =
                all.stream().mapToDouble(d -> d.series().widthSeconds()).max().orElse(1);
        double end =
                all.stream().mapToDouble(d -> d.series().endSeconds()).max().orElse(step);
        int n = Math.max(1, (int) Math.ceil(end / step - 1e-9));
        double[] x = new double[n];
        for (int k = 0; k < n; k++) {
            x[k] = k * step;
        }
        List<ChartSpec.Band> phases =
                base.isEmpty() ? List.of() : phases(base.get(0).series());
        List<Line> latency = new ArrayList<>();
        List<Line> throughput = new ArrayList<>();
        for (Drawn d : all) {
            RunSeries s = d.series();
            latency.add(Line.solid(d.name() + " p99", d.color(), s.onGrid(s.p99(), step, n)));
            latency.add(Line.dashed(d.name() + " median", d.color(), s.onGrid(s.p50(), step, n)));
            throughput.add(Line.solid(d.name(), d.color(), s.onGrid(s.perSecond(), step, n)));
        }
        String per =
                step >= 1 ? String.format(Locale.US, "%.0f s", step) : String.format(Locale.US, "%.0f ms", step * 1e3);
        String xLabel = "time since the run started (s)";
        List<ChartSpec> charts = new ArrayList<>();
        charts.add(new ChartSpec(
                "compare-latency",
                "Latency over time: p99 (solid) and median (dashed) per " + per + " of completion",
                xLabel,
                "latency (ms)",
                ChartSpec.XAxis.SECONDS,
                ChartSpec.YAxis.LOG,
                x,
                latency,
                phases));
        charts.add(new ChartSpec(
                "compare-throughput",
                "Attempts completed per second (per " + per + ")",
                xLabel,
                "per second",
                ChartSpec.XAxis.SECONDS,
                ChartSpec.YAxis.LINEAR,
                x,
                throughput,
                phases));
        charts.add(percentiles(base, cand));
        return new CompareCharts(charts, notes);
    }

    private static List<Drawn> drawn(Side side, String[] colors, List<String> notes) {
        List<Drawn> drawn = new ArrayList<>();
        List<SummaryReader.Run> runs = side.runs();
        for (int i = 0; i < runs.size(); i++) {
            try {
                RunSeries s = RunSeries.read(runs.get(i).source());
                String name = runs.size() == 1 ? side.name() : side.name() + " " + (i + 1);
                drawn.add(new Drawn(name, colors[i % colors.length], s));
            } catch (IOException e) {
                notes.add("no lines for the " + side.name() + " run "
                        + runs.get(i).source() + ": " + e.getMessage());
            }
        }
        return drawn;
    }

    private static List<ChartSpec.Band> phases(RunSeries s) {
        List<ChartSpec.Band> bands = new ArrayList<>();
        for (int k = 0; k < s.phases().size(); k++) {
            ChartSpec.Band b = s.phases().get(k);
            bands.add(new ChartSpec.Band("baseline " + b.label(), b.from(), b.to(), ChartStyle.phaseColor(k)));
        }
        return bands;
    }

    /** Each side's runs added into one histogram, drawn as one curve per side (and one per side from intended). */
    private static ChartSpec percentiles(List<Drawn> base, List<Drawn> cand) {
        Histogram b = sum(base, RunSeries::all);
        Histogram c = sum(cand, RunSeries::all);
        Histogram bi = sum(base, RunSeries::intended);
        Histogram ci = sum(cand, RunSeries::intended);
        long count = 0;
        for (Histogram h : Arrays.asList(b, c, bi, ci)) {
            count = Math.max(count, h == null ? 0 : h.getTotalCount());
        }
        double[] nines = PercentileCurves.nines(count);
        List<Line> lines = new ArrayList<>();
        addCurve(lines, "baseline", BASELINE[0], b, nines, false);
        addCurve(lines, "candidate", CANDIDATE[0], c, nines, false);
        addCurve(lines, "baseline from intended", BASELINE[0], bi, nines, true);
        addCurve(lines, "candidate from intended", CANDIDATE[0], ci, nines, true);
        return new ChartSpec(
                "compare-percentiles",
                "Latency by percentile (each side's runs added up"
                        + (bi != null || ci != null ? "; dashed: from the intended send)" : ")"),
                "percentile (each step adds a nine)",
                "latency (ms)",
                ChartSpec.XAxis.NINES,
                ChartSpec.YAxis.LOG,
                nines,
                lines,
                List.of());
    }

    private static void addCurve(
            List<Line> lines, String name, String color, Histogram h, double[] nines, boolean dashed) {
        PercentileCurves.Curve curve = PercentileCurves.curve(name, h, nines);
        if (curve != null) {
            lines.add(
                    dashed
                            ? Line.dashed(curve.name(), color, curve.millis())
                            : Line.solid(curve.name(), color, curve.millis()));
        }
    }

    /**
     * The histograms {@code which} picks from each drawn run, added up; null when no run has one (a side of
     * closed-model runs has no intended histogram). A side mixing open and closed runs adds the open ones only.
     */
    private static Histogram sum(List<Drawn> drawn, Function<RunSeries, Histogram> which) {
        Histogram total = null;
        for (Drawn d : drawn) {
            Histogram h = which.apply(d.series());
            if (h == null) {
                continue;
            }
            if (total == null) {
                total = h.copy();
            } else {
                total.add(h);
            }
        }
        return total;
    }
}
