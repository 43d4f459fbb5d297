package io.upic.liftride.client.part2.chart;

import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The charts of a sweep: wall time, throughput and latency against the thread count (as categories), measured
 * next to the naive and the model's ("bounded") predictions. Static and thread-safe.
 */
public final class SweepCharts {

    public static final String WALL_TIME = "sweep-wall-time.png";
    public static final String THROUGHPUT = "sweep-throughput.png";
    public static final String LATENCY = "sweep-latency.png";

    /** Above this ratio between the highest and the lowest throughput drawn, the throughput axis is logarithmic. */
    static final double LOG_AXIS_RATIO = 4;

    static final String NAIVE = "naive Little's law: N / W (single-thread W)";
    static final String BOUNDED = "predicted: MVA closed network (C cores, D under load, delay Z)";
    static final String BOUNDED_CLIENT = "predicted: MVA closed network, D = client CPU only";

    private SweepCharts() {}

    /**
     * One run of the sweep, as the charts need it.
     *
     * @param threads                the run's -t
     * @param wallSeconds            measured wall time
     * @param predictedWallSeconds   naive Little's-law wall time, NaN without a baseline
     * @param throughput             measured successful requests per second
     * @param predictedThroughput    naive Little's-law throughput, NaN without a baseline
     * @param boundedWallSeconds     bounded wall time, NaN without a baseline or its CPU time
     * @param boundedThroughput      bounded throughput, NaN without a baseline or its CPU time
     * @param boundedClientOnly      whether the bound's D covers the client's CPU only (remote server)
     * @param meanMillis             mean latency of all attempts
     * @param medianMillis           median latency of all attempts
     * @param p99Millis              p99 latency of all attempts
     */
    public record Point(
            int threads,
            double wallSeconds,
            double predictedWallSeconds,
            double throughput,
            double predictedThroughput,
            double boundedWallSeconds,
            double boundedThroughput,
            boolean boundedClientOnly,
            double meanMillis,
            double medianMillis,
            double p99Millis) {}

    /** Writes the three sweep charts into {@code dir}. */
    public static List<ChartFile> write(Path dir, String label, List<Point> points) throws IOException {
        List<ChartFile> files = new ArrayList<>(3);
        CategoryChart wall = wallTime(label, points);
        ChartStyle.savePng(wall, dir.resolve(WALL_TIME));
        files.add(new ChartFile(dir.resolve(WALL_TIME), wall.getTitle()));
        CategoryChart throughput = throughput(label, points);
        ChartStyle.savePng(throughput, dir.resolve(THROUGHPUT));
        files.add(new ChartFile(dir.resolve(THROUGHPUT), throughput.getTitle()));
        CategoryChart latency = latency(label, points);
        ChartStyle.savePng(latency, dir.resolve(LATENCY));
        files.add(new ChartFile(dir.resolve(LATENCY), latency.getTitle()));
        return files;
    }

    public static CategoryChart wallTime(String label, List<Point> points) {
        CategoryChart c = ChartStyle.category("Wall time by thread count: " + label, "threads (-t)", "wall time (s)");
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Bar);
        c.getStyler().setAvailableSpaceFill(0.75);
        c.getStyler().setLabelsVisible(true);
        c.getStyler().setLabelsFont(c.getStyler().getAxisTickLabelsFont());
        c.getStyler().setLabelsFontColorAutomaticEnabled(true); // white on the dark bars, dark on the light ones
        c.getStyler().setLabelsPosition(0.92);
        c.getStyler().setYAxisDecimalPattern("#,##0.0");
        c.getStyler().setLegendPadding(16); // three long entries side by side
        List<Color> colors = new ArrayList<>(List.of(ChartStyle.BLUE));
        double top = 0;
        for (Point p : points) {
            top = Math.max(
                    top,
                    Math.max(
                            p.wallSeconds(),
                            Math.max(nanToZero(p.predictedWallSeconds()), nanToZero(p.boundedWallSeconds()))));
        }
        c.addSeries("measured", categories(points), values(points, Point::wallSeconds));
        if (has(points, Point::predictedWallSeconds)) {
            c.addSeries(NAIVE, categories(points), values(points, p -> nanToZero(p.predictedWallSeconds())));
            colors.add(LIGHT_GREY);
        }
        if (has(points, Point::boundedWallSeconds)) {
            c.addSeries(
                    boundedName(points), categories(points), values(points, p -> nanToZero(p.boundedWallSeconds())));
            colors.add(ChartStyle.ORANGE);
        }
        c.getStyler().setSeriesColors(colors.toArray(new Color[0]));
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(RunCharts.niceTop(top * 1.12));
        return c;
    }

    /**
     * Measured, naive and bounded throughput; the y axis turns logarithmic past {@link #LOG_AXIS_RATIO} so the
     * lines keep their detail.
     */
    public static CategoryChart throughput(String label, List<Point> points) {
        double top = 0, bottom = Double.POSITIVE_INFINITY;
        for (Point p : points) {
            for (double v : new double[] {p.throughput(), p.predictedThroughput(), p.boundedThroughput()}) {
                if (v > 0) { // NaN and 0 are not drawn on a log axis
                    top = Math.max(top, v);
                    bottom = Math.min(bottom, v);
                }
            }
        }
        boolean log = top > 0 && top / bottom > LOG_AXIS_RATIO;
        CategoryChart c = ChartStyle.category(
                "Throughput by thread count: " + label,
                "threads (-t)",
                "throughput (successful requests / wall s)" + (log ? ", log scale" : ""));
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        c.getStyler().setOverlapped(true); // lines share the category's x position instead of standing side by side
        c.getStyler().setYAxisDecimalPattern("#,##0");
        c.getStyler().setLegendPadding(16); // three long entries side by side
        if (has(points, Point::predictedThroughput)) {
            CategorySeries p = c.addSeries(NAIVE, categories(points), values(points, Point::predictedThroughput));
            style(p, LIGHT_GREY, SeriesMarkers.SQUARE, ChartStyle.DOTTED);
        }
        if (has(points, Point::boundedThroughput)) {
            CategorySeries b =
                    c.addSeries(boundedName(points), categories(points), values(points, Point::boundedThroughput));
            style(b, ChartStyle.ORANGE, SeriesMarkers.DIAMOND, ChartStyle.DASHED);
        }
        CategorySeries m = c.addSeries("measured", categories(points), values(points, Point::throughput));
        style(m, ChartStyle.BLUE, SeriesMarkers.CIRCLE, ChartStyle.THICK); // added last: drawn on top
        valueLabels(c, points, log, top);
        if (log) {
            c.getStyler().setYAxisLogarithmic(true);
            // labels at 10^k only: XChart's labels at 2..9 x 10^k touch near the top of a decade, and its custom label
            // function switches to a linear tick calculator that loops forever on empty labels
            c.getStyler().setYAxisMin(niceBottom(bottom * 0.8));
            c.getStyler().setYAxisMax(RunCharts.niceTop(top * 1.25));
        } else {
            c.getStyler().setYAxisMin(0.0);
            c.getStyler().setYAxisMax(RunCharts.niceTop(top * 1.08));
        }
        return c;
    }

    /**
     * Each drawn value printed just above its point, so a log axis labelled at its decades can still be read. A
     * category's centre is at x = index + 0.5 in XChart's annotation space.
     */
    private static void valueLabels(CategoryChart c, List<Point> points, boolean log, double top) {
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            for (double v : new double[] {p.throughput(), p.predictedThroughput(), p.boundedThroughput()}) {
                if (v > 0) {
                    double y = log ? v * 1.22 : v + top * 0.035;
                    c.addAnnotation(new AnnotationText(String.format(Locale.US, "%,.0f", v), i + 0.5, y, false));
                }
            }
        }
    }

    public static CategoryChart latency(String label, List<Point> points) {
        CategoryChart c =
                ChartStyle.category("Latency by thread count (all attempts): " + label, "threads (-t)", "latency (ms)");
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        c.getStyler().setOverlapped(true); // lines share the category's x position instead of standing side by side
        double top = 0;
        for (Point p : points) {
            top = Math.max(top, Math.max(p.p99Millis(), p.meanMillis()));
        }
        style(
                c.addSeries("p99", categories(points), values(points, Point::p99Millis)),
                ChartStyle.RED,
                SeriesMarkers.TRIANGLE_UP,
                ChartStyle.SOLID);
        style(
                c.addSeries("mean", categories(points), values(points, Point::meanMillis)),
                ChartStyle.BLUE,
                SeriesMarkers.CIRCLE,
                ChartStyle.THICK);
        style(
                c.addSeries("median (p50)", categories(points), values(points, Point::medianMillis)),
                ChartStyle.GREEN,
                SeriesMarkers.DIAMOND,
                ChartStyle.DASHED);
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(RunCharts.niceTop(top * 1.08));
        c.getStyler().setYAxisDecimalPattern(top >= 20 ? "#,##0" : "#,##0.0");
        return c;
    }

    private static void style(
            CategorySeries s, Color color, org.knowm.xchart.style.markers.Marker marker, java.awt.BasicStroke stroke) {
        s.setLineColor(color);
        s.setMarkerColor(color);
        s.setMarker(marker);
        s.setLineStyle(stroke);
    }

    /** A light grey for the naive prediction: shown, but not competing with the measurement. */
    static final Color LIGHT_GREY = new Color(175, 175, 175);

    private static boolean has(List<Point> points, java.util.function.ToDoubleFunction<Point> f) {
        return points.stream().anyMatch(p -> !Double.isNaN(f.applyAsDouble(p)));
    }

    private static String boundedName(List<Point> points) {
        return points.stream().anyMatch(Point::boundedClientOnly) ? BOUNDED_CLIENT : BOUNDED;
    }

    /** The largest 1, 2 or 5 x 10^k at or below {@code v} (> 0). */
    static double niceBottom(double v) {
        double decade = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {5, 2, 1}) {
            if (m * decade <= v) {
                return m * decade;
            }
        }
        return decade;
    }

    private static List<String> categories(List<Point> points) {
        List<String> c = new ArrayList<>(points.size());
        for (int i = 0; i < points.size(); i++) {
            String name = Integer.toString(points.get(i).threads());
            // a repeated thread count gets a suffix: categories must be distinct
            int repeat = 1;
            for (int j = 0; j < i; j++) {
                if (points.get(j).threads() == points.get(i).threads()) {
                    repeat++;
                }
            }
            c.add(repeat == 1 ? name : name + " (#" + repeat + ")");
        }
        return c;
    }

    private static List<Double> values(List<Point> points, java.util.function.ToDoubleFunction<Point> f) {
        List<Double> v = new ArrayList<>(points.size());
        for (Point p : points) {
            double x = f.applyAsDouble(p);
            v.add(Double.isNaN(x) ? null : x); // a gap in a line
        }
        return v;
    }

    private static double nanToZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}
