package io.upic.liftride.client.part2.html;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One self-contained HTML page that works offline: the caller adds headings, text, tables, headline numbers and
 * {@link ChartSpec charts}; {@link #render()} inlines styles, data, uPlot ({@link UPlot}) and script. Tests and
 * scripts rely on {@code figure.chart}, {@code data-drawn}, {@code data-metric}, {@code data-value} and {@code
 * data-scope}. Not thread-safe: one page per thread while it is built.
 */
public final class HtmlPage {

    private static final String SCRIPT = resource("charts.js");
    private static final String STYLE = resource("page.css");
    private static final Gson GSON = new Gson(); // escapes <, > and & in strings: safe inside a script element

    private final String title;
    private final StringBuilder body = new StringBuilder(8_192);
    private final List<ChartSpec> charts = new ArrayList<>();

    public HtmlPage(String title) {
        this.title = title;
    }

    /**
     * A headline number.
     *
     * @param key   the stable key ({@code data-metric}), e.g. {@code throughput}
     * @param label what a reader sees above it
     * @param value the exact value ({@code data-value}); NaN when there is none
     * @param text  the value as shown, with its unit
     */
    public record Metric(String key, String label, double value, String text) {}

    /** A heading of {@code level} (1-4) with an optional anchor id (null for none). */
    public HtmlPage heading(int level, String text, String id) {
        if (level < 1 || level > 4) {
            throw new IllegalArgumentException("heading level not in 1..4: " + level);
        }
        body.append("<h").append(level);
        if (id != null) {
            body.append(" id=\"").append(Html.escape(id)).append('"');
        }
        body.append('>').append(Html.escape(text)).append("</h").append(level).append(">\n");
        return this;
    }

    /** A paragraph of text, with {@link Html#inline inline marks}. */
    public HtmlPage paragraph(String text) {
        return html("<p>" + Html.inline(text) + "</p>");
    }

    /** A paragraph of text in the style of a warning. */
    public HtmlPage warning(String text) {
        return html("<p class=\"warning\">" + Html.inline(text) + "</p>");
    }

    /** A bulleted list of text items, with {@link Html#inline inline marks}. */
    public HtmlPage list(List<String> items) {
        body.append("<ul>\n");
        items.forEach(i -> body.append("<li>").append(Html.inline(i)).append("</li>\n"));
        body.append("</ul>\n");
        return this;
    }

    /** Markup as is: the caller escaped every text in it ({@link Html#escape}). */
    public HtmlPage html(String markup) {
        body.append(markup).append('\n');
        return this;
    }

    /** A table of plain-text cells, {@code right} per column; {@code **text**} cells show bold. */
    public HtmlPage table(List<String> header, List<Boolean> right, List<List<String>> rows) {
        body.append("<table>\n<thead><tr>");
        header.forEach(h -> body.append("<th>").append(Html.escape(h)).append("</th>"));
        body.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : rows) {
            body.append("<tr>");
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                boolean bold = cell.length() > 4 && cell.startsWith("**") && cell.endsWith("**");
                String text = Html.escape(bold ? cell.substring(2, cell.length() - 2) : cell);
                body.append(i < right.size() && right.get(i) ? "<td class=\"n\">" : "<td>")
                        .append(bold ? "<strong>" + text + "</strong>" : text)
                        .append("</td>");
            }
            body.append("</tr>\n");
        }
        body.append("</tbody>\n</table>\n");
        return this;
    }

    /** The headline numbers of {@code scope} (e.g. a run folder's name), in a row of boxes. */
    public HtmlPage metrics(String scope, List<Metric> metrics) {
        body.append("<dl class=\"metrics\" data-scope=\"")
                .append(Html.escape(scope))
                .append("\">\n");
        for (Metric m : metrics) {
            body.append("<div><dt>")
                    .append(Html.escape(m.label()))
                    .append("</dt><dd data-metric=\"")
                    .append(Html.escape(m.key()))
                    .append("\" data-value=\"")
                    .append(Double.isNaN(m.value()) ? "" : Double.toString(m.value()))
                    .append("\">")
                    .append(Html.escape(m.text()))
                    .append("</dd></div>\n");
        }
        body.append("</dl>\n");
        return this;
    }

    /** A chart, drawn where it is added. */
    public HtmlPage chart(ChartSpec spec) {
        if (charts.stream().anyMatch(c -> c.id().equals(spec.id()))) {
            throw new IllegalArgumentException("two charts with id " + spec.id());
        }
        charts.add(spec);
        body.append("<figure class=\"chart\"><figcaption>")
                .append(Html.escape(spec.title()))
                .append("</figcaption><div id=\"")
                .append(spec.id())
                .append("\"></div></figure>\n");
        return this;
    }

    /** The charts added so far. */
    public List<ChartSpec> charts() {
        return List.copyOf(charts);
    }

    /** The whole page. */
    public String render() {
        StringBuilder b = new StringBuilder(body.length() + UPlot.SCRIPT.length() + 64_000);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                // nothing may be loaded from anywhere: scripts, styles and data are all inline
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; ")
                .append("script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n")
                .append("<title>")
                .append(Html.escape(title))
                .append("</title>\n<style>\n")
                .append(UPlot.STYLE)
                .append('\n')
                .append(STYLE)
                .append("</style>\n</head>\n<body>\n<main>\n")
                .append(body)
                .append("<footer>Charts drawn by uPlot ")
                .append(Html.escape(UPlot.VERSION))
                .append(" (MIT licence, inlined in this page): drag across a chart to zoom into a range, ")
                .append("double-click to zoom out.</footer>\n</main>\n")
                .append("<script type=\"application/json\" id=\"report-data\">")
                .append(GSON.toJson(data()))
                .append("</script>\n<script>\n/*! uPlot ")
                .append(UPlot.VERSION)
                .append(" https://github.com/leeoniya/uPlot\n")
                .append(UPlot.LICENSE.replace("*/", "* /"))
                .append("*/\n")
                .append(UPlot.SCRIPT)
                .append("\n</script>\n<script>\n")
                .append(SCRIPT)
                .append("</script>\n</body>\n</html>\n");
        return b.toString();
    }

    /** Writes the page to {@code file} (through a temporary file, so a reader never sees half a page). */
    public Path write(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, render(), StandardCharsets.UTF_8);
        return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private JsonObject data() {
        JsonArray list = new JsonArray();
        for (ChartSpec c : charts) {
            JsonObject o = new JsonObject();
            o.addProperty("id", c.id());
            o.addProperty("title", c.title());
            o.addProperty("xLabel", c.xLabel());
            o.addProperty("yLabel", c.yLabel());
            o.addProperty("xAxis", c.xAxis().name());
            o.addProperty("yAxis", c.yAxis().name());
            o.add("x", numbers(c.x()));
            JsonArray lines = new JsonArray();
            for (ChartSpec.Line l : c.lines()) {
                JsonObject lo = new JsonObject();
                lo.addProperty("label", l.label());
                lo.addProperty("color", l.color());
                lo.addProperty("dashed", l.dashed());
                lo.addProperty("points", l.points());
                lo.add("y", numbers(l.y()));
                lines.add(lo);
            }
            o.add("lines", lines);
            o.add("bands", GSON.toJsonTree(c.bands()));
            list.add(o);
        }
        JsonObject data = new JsonObject();
        data.add("charts", list);
        return data;
    }

    /** Values rounded to 6 significant digits (the charts show 3), NaN as null (a gap). */
    static JsonArray numbers(double[] values) {
        JsonArray a = new JsonArray(values.length);
        for (double v : values) {
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                a.add(JsonNull.INSTANCE);
            } else {
                a.add(new JsonPrimitive(round(v)));
            }
        }
        return a;
    }

    private static double round(double v) {
        if (v == 0) {
            return 0;
        }
        int e = 5 - (int) Math.floor(Math.log10(Math.abs(v)));
        if (e >= 0) {
            double scale = Math.pow(10, e); // exact up to 1e22: the quotient is the nearest double to the decimal
            return Math.round(v * scale) / scale;
        }
        double unit = Math.pow(10, -e);
        return Math.round(v / unit) * unit;
    }

    private static String resource(String name) {
        try (InputStream in = HtmlPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " next to " + HtmlPage.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
