package io.upic.liftride.client.part2.chart;

import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The charts of a sweep (one run per thread count): wall time, throughput, and latency against the
 * thread count, measured next to Little's-law predictions. The thread counts are categories, so
 * 32, 64, 128, 256 sit at equal distances (a doubling per step). Static and thread-safe.
 */
public final class SweepCharts {

    public static final String WALL_TIME = "sweep-wall-time.png";
    public static final String THROUGHPUT = "sweep-throughput.png";
    public static final String LATENCY = "sweep-latency.png";

    private SweepCharts() {
    }

    /**
     * One run of the sweep, as the charts need it.
     *
     * @param threads             the run's -t
     * @param wallSeconds         measured wall time
     * @param predictedWallSeconds Little's-law wall time, NaN without a baseline
     * @param throughput          measured successful requests per second
     * @param predictedThroughput Little's-law throughput, NaN without a baseline
     * @param meanMillis          mean latency of all attempts
     * @param medianMillis        median latency of all attempts
     * @param p99Millis           p99 latency of all attempts
     */
    public record Point(int threads, double wallSeconds, double predictedWallSeconds, double throughput,
                        double predictedThroughput, double meanMillis, double medianMillis, double p99Millis) {
    }

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
        c.getStyler().setAvailableSpaceFill(0.7);
        c.getStyler().setLabelsVisible(true);
        c.getStyler().setLabelsFont(c.getStyler().getAxisTickLabelsFont());
        c.getStyler().setLabelsFontColorAutomaticEnabled(true); // white on the dark bars, dark on the light ones
        c.getStyler().setLabelsPosition(0.92);
        c.getStyler().setYAxisDecimalPattern("#,##0.0");
        c.getStyler().setSeriesColors(new Color[]{ChartStyle.BLUE, new Color(170, 170, 170)});
        double top = 0;
        for (Point p : points) top = Math.max(top, Math.max(p.wallSeconds(), nanToZero(p.predictedWallSeconds())));
        c.addSeries("measured", categories(points), values(points, Point::wallSeconds));
        if (hasPredictions(points)) {
            c.addSeries("Little's law prediction (single-thread W)", categories(points), values(points, p -> nanToZero(p.predictedWallSeconds())));
        }
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(RunCharts.niceTop(top * 1.12));
        return c;
    }

    public static CategoryChart throughput(String label, List<Point> points) {
        CategoryChart c = ChartStyle.category("Throughput by thread count: " + label, "threads (-t)",
                "throughput (successful requests / wall s)");
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        c.getStyler().setOverlapped(true); // lines share the category's x position instead of standing side by side
        c.getStyler().setYAxisDecimalPattern("#,##0");
        double top = 0;
        for (Point p : points) top = Math.max(top, Math.max(p.throughput(), nanToZero(p.predictedThroughput())));
        CategorySeries m = c.addSeries("measured", categories(points), values(points, Point::throughput));
        style(m, ChartStyle.BLUE, SeriesMarkers.CIRCLE, ChartStyle.THICK);
        if (hasPredictions(points)) {
            CategorySeries p = c.addSeries("Little's law prediction: planned requests / predicted wall time",
                    categories(points), values(points, x -> nanToZero(x.predictedThroughput())));
            style(p, ChartStyle.GREY, SeriesMarkers.SQUARE, ChartStyle.DASHED);
        }
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(RunCharts.niceTop(top * 1.08));
        return c;
    }

    public static CategoryChart latency(String label, List<Point> points) {
        CategoryChart c = ChartStyle.category("Latency by thread count (all attempts): " + label, "threads (-t)", "latency (ms)");
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        c.getStyler().setOverlapped(true); // lines share the category's x position instead of standing side by side
        double top = 0;
        for (Point p : points) top = Math.max(top, Math.max(p.p99Millis(), p.meanMillis()));
        style(c.addSeries("p99", categories(points), values(points, Point::p99Millis)), ChartStyle.RED, SeriesMarkers.TRIANGLE_UP, ChartStyle.SOLID);
        style(c.addSeries("mean", categories(points), values(points, Point::meanMillis)), ChartStyle.BLUE, SeriesMarkers.CIRCLE, ChartStyle.THICK);
        style(c.addSeries("median (p50)", categories(points), values(points, Point::medianMillis)), ChartStyle.GREEN, SeriesMarkers.DIAMOND, ChartStyle.DASHED);
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(RunCharts.niceTop(top * 1.08));
        c.getStyler().setYAxisDecimalPattern(top >= 20 ? "#,##0" : "#,##0.0");
        return c;
    }

    private static void style(CategorySeries s, Color color, org.knowm.xchart.style.markers.Marker marker, java.awt.BasicStroke stroke) {
        s.setLineColor(color);
        s.setMarkerColor(color);
        s.setMarker(marker);
        s.setLineStyle(stroke);
    }

    private static boolean hasPredictions(List<Point> points) {
        return points.stream().anyMatch(p -> !Double.isNaN(p.predictedWallSeconds()));
    }

    private static List<String> categories(List<Point> points) {
        List<String> c = new ArrayList<>(points.size());
        for (int i = 0; i < points.size(); i++) {
            String name = Integer.toString(points.get(i).threads());
            // a repeated thread count gets a suffix: categories must be distinct
            int repeat = 1;
            for (int j = 0; j < i; j++) if (points.get(j).threads() == points.get(i).threads()) repeat++;
            c.add(repeat == 1 ? name : name + " (#" + repeat + ")");
        }
        return c;
    }

    private static List<Double> values(List<Point> points, java.util.function.ToDoubleFunction<Point> f) {
        List<Double> v = new ArrayList<>(points.size());
        for (Point p : points) v.add(f.applyAsDouble(p));
        return v;
    }

    private static double nanToZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}
