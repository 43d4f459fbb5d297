package io.upic.liftride.client.part2.html;

import java.util.List;
import java.util.Objects;

/**
 * One interactive chart of an HTML page, as data: x values, lines (NaN for a gap) and shaded x ranges.
 * Immutable by convention: the arrays are not copied, so do not modify them.
 *
 * @param id     the chart's element id on the page (letters, digits and '-')
 * @param title  the heading above the chart
 * @param xLabel the x axis' label
 * @param yLabel the y axis' label
 * @param xAxis  how x is drawn
 * @param yAxis  how y is drawn
 * @param x      the x values, ascending
 * @param lines  the series, each as long as {@code x}
 * @param bands  ranges of x to shade and name, possibly empty
 */
public record ChartSpec(
        String id,
        String title,
        String xLabel,
        String yLabel,
        XAxis xAxis,
        YAxis yAxis,
        double[] x,
        List<Line> lines,
        List<Band> bands) {

    /** How the x axis is drawn. */
    public enum XAxis {
        /** Seconds, linear; drag to zoom into a time range, double-click to zoom out. */
        SECONDS,
        /** "Nines" of a percentile, log10(1 / (1 - p)): whole numbers are labelled 0%, 90%, 99%, 99.9%... */
        NINES,
        /** A thread count, on a log-2 scale; each point's value is printed beside it. */
        THREADS
    }

    /** How the y axis is drawn; the legend shows each line's mean, or with few points its last value. */
    public enum YAxis {
        /** From 0, linear. */
        LINEAR,
        /** Log-10 with every decade labelled; values <= 0 are gaps. */
        LOG
    }

    /**
     * One series.
     *
     * @param label  its legend
     * @param color  a CSS colour
     * @param y      one value per x; NaN where there is none
     * @param dashed drawn dashed (a prediction, a reference)
     * @param points drawn as points only (sparse events, such as failures)
     */
    public record Line(String label, String color, double[] y, boolean dashed, boolean points) {

        public Line {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(color, "color");
            Objects.requireNonNull(y, "y");
        }

        /** A solid line. */
        public static Line solid(String label, String color, double[] y) {
            return new Line(label, color, y, false, false);
        }

        /** A dashed line. */
        public static Line dashed(String label, String color, double[] y) {
            return new Line(label, color, y, true, false);
        }
    }

    /**
     * A shaded range of x with its name, e.g. a phase from its start to its end.
     *
     * @param label its name
     * @param from  its first x
     * @param to    its last x
     * @param color a CSS colour (drawn translucent)
     */
    public record Band(String label, double from, double to, String color) {}

    public ChartSpec {
        if (id == null || !id.matches("[A-Za-z][A-Za-z0-9-]*")) {
            throw new IllegalArgumentException("id must be letters, digits and '-': " + id);
        }
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(yAxis, "yAxis");
        lines = List.copyOf(lines);
        bands = List.copyOf(bands);
        for (Line l : lines) {
            if (l.y().length != x.length) {
                throw new IllegalArgumentException(
                        "line " + l.label() + " has " + l.y().length + " values for " + x.length + " x values");
            }
        }
    }
}
