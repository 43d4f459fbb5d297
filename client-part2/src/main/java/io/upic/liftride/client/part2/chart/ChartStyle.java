package io.upic.liftride.client.part2.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javax.imageio.ImageIO;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/**
 * The look every chart shares (size, fonts, colours, legend below the plot) and the PNG writer.
 * Loading this class switches AWT to headless mode first, so charts render on servers without a
 * display. Static and thread-safe.
 */
public final class ChartStyle {

    static {
        enableHeadless();
    }

    public static final int WIDTH = 1200;
    public static final int HEIGHT = 700;

    static final Color BLUE = new Color(31, 119, 180);
    static final Color ORANGE = new Color(255, 127, 14);
    static final Color GREEN = new Color(44, 160, 44);
    static final Color RED = new Color(214, 39, 40);
    static final Color PURPLE = new Color(148, 103, 189);
    static final Color GREY = new Color(110, 110, 110);
    static final Color[] SERIES = {BLUE, ORANGE, GREEN, PURPLE, RED, GREY};
    /** Phase colours, in phase order, for the PNGs and report.html: distinct from the lines drawn over them. */
    static final Color[] PHASES = {
        new Color(23, 190, 207), new Color(227, 119, 194), PURPLE, new Color(140, 86, 75), new Color(188, 189, 34)
    };

    static final BasicStroke DASHED =
            new BasicStroke(2.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {9f, 6f}, 0f);
    static final BasicStroke SOLID = new BasicStroke(2.2f);
    static final BasicStroke DOTTED =
            new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 4f}, 0f);
    static final BasicStroke THICK = new BasicStroke(3.0f);

    private ChartStyle() {}

    /** The colour of the phase at {@code index} (in plan order) as CSS {@code #rrggbb}. */
    public static String phaseColor(int index) {
        Color c = PHASES[index % PHASES.length];
        return String.format(Locale.ROOT, "#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
    }

    /** Sets {@code java.awt.headless=true} unless the user chose otherwise; call before any AWT use. */
    public static void enableHeadless() {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /** An empty XY chart with title and axis titles (units belong in the axis titles). */
    static XYChart xy(String title, String xTitle, String yTitle) {
        XYChart c = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(xTitle)
                .yAxisTitle(yTitle)
                .build();
        apply(c.getStyler());
        c.getStyler().setMarkerSize(6);
        return c;
    }

    /** An empty category chart with title and axis titles. */
    static CategoryChart category(String title, String xTitle, String yTitle) {
        CategoryChart c = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(xTitle)
                .yAxisTitle(yTitle)
                .build();
        apply(c.getStyler());
        c.getStyler().setMarkerSize(9);
        return c;
    }

    private static void apply(AxesChartStyler s) {
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(true);
        s.setPlotBorderColor(new Color(170, 170, 170));
        s.setPlotGridLinesColor(new Color(225, 225, 225));
        s.setPlotGridLinesStroke(new BasicStroke(1f));
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 22));
        s.setChartTitleBoxVisible(false);
        s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 17));
        s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        s.setLegendBorderColor(Color.WHITE);
        s.setLegendSeriesLineLength(28);
        s.setChartPadding(14);
        s.setPlotMargin(0);
        s.setAxisTitlePadding(10);
        s.setAxisTickPadding(6);
        s.setLocale(Locale.US);
        s.setAntiAlias(true);
        s.setSeriesColors(SERIES);
        s.setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        s.setAnnotationTextFontColor(new Color(60, 60, 60));
    }

    /**
     * Writes {@code chart} as a PNG to {@code file} (replacing it) through an in-memory buffer, so it works while
     * the JVM shuts down (ImageIO's file cache registers a shutdown hook, which throws then).
     */
    public static void savePng(Chart<?, ?> chart, Path file) throws IOException {
        BufferedImage image = BitmapEncoder.getBufferedImage(chart); // drawn before the file is touched
        try (OutputStream out = Files.newOutputStream(file);
                ImageOutputStream png = new MemoryCacheImageOutputStream(out)) {
            if (!ImageIO.write(image, "png", png)) {
                throw new IOException("no PNG writer in this JVM");
            }
        }
    }
}
