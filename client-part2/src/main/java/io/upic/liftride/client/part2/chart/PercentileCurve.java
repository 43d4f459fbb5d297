package io.upic.liftride.client.part2.chart;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.HdrHistogram.AbstractHistogram;

/**
 * The data of an HdrHistogram-style percentile plot: x = 1 / (1 - p) on a log axis, y = the latency at p in
 * milliseconds, {@code pointsPerDecade} points per decade up to x = count, where the last point is the maximum.
 * Immutable.
 *
 * @param x           1 / (1 - p), ascending, first 1
 * @param percentiles the percentile each latency was read at, ascending: 100 x (1 - 1/x), first 0, last 100
 * @param millis      latency at each percentile (histogram semantics, see LatencyStats), non-decreasing
 */
public record PercentileCurve(double[] x, double[] percentiles, double[] millis) {

    /** The curve of {@code histogram} (values in microseconds); empty arrays if it is empty. */
    public static PercentileCurve of(AbstractHistogram histogram, int pointsPerDecade) {
        if (pointsPerDecade < 1) {
            throw new IllegalArgumentException("pointsPerDecade < 1: " + pointsPerDecade);
        }
        long count = histogram.getTotalCount();
        if (count == 0) {
            return new PercentileCurve(new double[0], new double[0], new double[0]);
        }
        double decades = Math.log10(count);
        int n = (int) Math.ceil(decades * pointsPerDecade) + 1;
        if (count == 1) {
            n = 1;
        }
        double[] x = new double[n];
        double[] p = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double xi = i == n - 1 ? count : Math.pow(10, (double) i / pointsPerDecade);
            if (xi > count) {
                xi = count;
            }
            x[i] = xi;
            p[i] = i == n - 1 ? 100.0 : 100.0 * (1.0 - 1.0 / xi);
            y[i] = histogram.getValueAtPercentile(p[i]) / 1000.0;
        }
        return new PercentileCurve(x, p, y);
    }

    /** Points on the curve. */
    public int size() {
        return x.length;
    }

    /** The axis label for x = 1 / (1 - p): "0%", "90%", "99%", "99.9%", "99.99%"... */
    public static String label(double x) {
        if (x <= 1) {
            return "0%";
        }
        BigDecimal p = BigDecimal.valueOf(100)
                .subtract(BigDecimal.valueOf(100).divide(BigDecimal.valueOf(x), MathContext.DECIMAL64));
        p = p.setScale(6, RoundingMode.HALF_UP).stripTrailingZeros();
        return p.toPlainString() + "%";
    }
}
