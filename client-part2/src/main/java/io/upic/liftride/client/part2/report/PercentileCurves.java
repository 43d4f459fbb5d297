package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;

/**
 * Latency by percentile for several scopes on one shared x axis in "nines", log10(1 / (1 - p)) (0 = p0, 1 = p90,
 * 2 = p99...): the data of the percentile chart. A curve stops at the nines its count can resolve. Immutable by
 * convention.
 *
 * @param nines  the x values, ascending, {@value #STEPS_PER_NINE} per nine
 * @param curves one per scope, each as long as {@code nines}, NaN past its resolution
 */
public record PercentileCurves(double[] nines, List<Curve> curves) {

    static final int STEPS_PER_NINE = 40;

    /** One scope's latency (ms) at each x. */
    public record Curve(String name, double[] millis) {}

    public PercentileCurves {
        curves = List.copyOf(curves);
    }

    /** The whole run (all attempts; first attempts when retries made them differ; from intended) and each phase. */
    public static PercentileCurves of(RunMetrics metrics) {
        ScopeStats run = metrics.run();
        long count = run.allHistogram() == null ? 0 : run.allHistogram().getTotalCount();
        if (run.fromIntendedHistogram() != null) {
            count = Math.max(count, run.fromIntendedHistogram().getTotalCount());
        }
        double[] nines = nines(count);
        List<Curve> curves = new ArrayList<>();
        add(curves, "whole run, all attempts", run.allHistogram(), nines);
        if (run.first().attempts() != run.all().attempts()) {
            add(curves, "whole run, first attempts", run.firstHistogram(), nines);
        }
        add(curves, "whole run, from intended send", run.fromIntendedHistogram(), nines);
        for (ScopeStats p : metrics.phases()) {
            add(curves, p.name(), p.allHistogram(), nines);
        }
        return new PercentileCurves(nines, curves);
    }

    /** The x axis for histograms of up to {@code count} values: up to the whole nine the count resolves, at least 1. */
    public static double[] nines(long count) {
        double top = Math.max(1, Math.ceil(Math.log10(Math.max(1, count)) - 1e-9));
        int n = (int) (top * STEPS_PER_NINE) + 1;
        double[] nines = new double[n];
        for (int i = 0; i < n; i++) {
            nines[i] = (double) i / STEPS_PER_NINE;
        }
        return nines;
    }

    private static void add(List<Curve> curves, String name, AbstractHistogram h, double[] nines) {
        Curve c = curve(name, h, nines);
        if (c != null) {
            curves.add(c);
        }
    }

    /** {@code h}'s latency (ms, from µs) at each of {@code nines}, NaN past its count's resolution; null if empty. */
    public static Curve curve(String name, AbstractHistogram h, double[] nines) {
        if (h == null || h.getTotalCount() == 0) {
            return null;
        }
        double resolvable = Math.log10(h.getTotalCount());
        double[] y = new double[nines.length];
        Arrays.fill(y, Double.NaN);
        for (int i = 0; i < nines.length && nines[i] <= resolvable + 1e-9; i++) {
            double p = 100 * (1 - Math.pow(10, -nines[i]));
            y[i] = h.getValueAtPercentile(p) / 1000.0;
        }
        return new Curve(name, y);
    }
}
