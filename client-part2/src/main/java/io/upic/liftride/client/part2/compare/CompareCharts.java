package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.part2.html.ChartSpec;
import io.upic.liftride.client.part2.html.ChartSpec.Line;
import io.upic.liftride.client.part2.report.PercentileCurves;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The charts of a comparison, both sides on the same axes: latency over time (p99 solid, median dashed, per time
 * bucket of completion as the runs wrote them), attempts completed per second, and the latency by percentile of
 * each side's runs added up; baseline runs in blues, candidate runs in reds, the baseline's first run's phases
 * shaded. Runs whose folder holds no histogram logs are left out and named in {@link #notes()}. Immutable by
 * convention.
 *
 * @param charts the charts, empty when no run has its histogram logs
 * @param notes  why a run has no lines
 */
public record CompareCharts(List<ChartSpec> charts, List<String> notes) {

    private static final String[] BASELINE = {"#1f77b4", "#6baed6", "#08519c", "#9ecae1"};
    private static final String[] CANDIDATE = {"#d62728", "#fc8d59", "#99000d", "#fdae6b"};
    private static final String[] PHASES = {"#17becf", "#ff7f0e", "#9467bd", "#8c564b"};

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
                x,
                latency,
                phases));
        charts.add(new ChartSpec(
                "compare-throughput",
                "Attempts completed per second (per " + per + ")",
                xLabel,
                "per second",
                ChartSpec.XAxis.SECONDS,
                x,
                throughput,
                phases));
        charts.add(percentiles(base, cand));
        return new CompareCharts(charts, notes);
    }

    private static List<Drawn> drawn(Side side, String[] colors, List<String> notes) {
        List<Drawn> drawn = new ArrayList<>();
        List<ComparedRun> runs = side.runs();
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
            bands.add(new ChartSpec.Band("baseline " + b.label(), b.from(), b.to(), PHASES[k % PHASES.length]));
        }
        return bands;
    }

    /** Each side's runs added into one histogram, drawn as one curve per side. */
    private static ChartSpec percentiles(List<Drawn> base, List<Drawn> cand) {
        Histogram b = sum(base);
        Histogram c = sum(cand);
        long count = Math.max(b == null ? 0 : b.getTotalCount(), c == null ? 0 : c.getTotalCount());
        double[] nines = PercentileCurves.nines(count);
        List<Line> lines = new ArrayList<>();
        PercentileCurves.Curve bc = PercentileCurves.curve("baseline", b, nines);
        PercentileCurves.Curve cc = PercentileCurves.curve("candidate", c, nines);
        if (bc != null) {
            lines.add(Line.solid(bc.name(), BASELINE[0], bc.millis()));
        }
        if (cc != null) {
            lines.add(Line.solid(cc.name(), CANDIDATE[0], cc.millis()));
        }
        return new ChartSpec(
                "compare-percentiles",
                "Latency by percentile (each side's runs added up)",
                "percentile (each step adds a nine)",
                "latency (ms)",
                ChartSpec.XAxis.NINES,
                nines,
                lines,
                List.of());
    }

    private static Histogram sum(List<Drawn> drawn) {
        if (drawn.isEmpty()) {
            return null;
        }
        Histogram h = drawn.get(0).series().all().copy();
        for (Drawn d : drawn.subList(1, drawn.size())) {
            h.add(d.series().all());
        }
        return h;
    }
}
