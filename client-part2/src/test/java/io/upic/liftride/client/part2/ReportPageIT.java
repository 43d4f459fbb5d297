package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.client.EmbeddedTarget;
import io.upic.liftride.client.part2.browser.HeadlessChromium;
import io.upic.liftride.client.part2.report.HtmlReport;
import io.upic.liftride.client.report.SummaryJson;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real sweep's {@code report.html}, opened from disk in headless Chromium with the network off: it logs no
 * error, requests nothing but file: and data: URLs, draws every chart with no series flat against its axis and a
 * value in every legend before any hover, fits its tables in 1,280 px, and shows the numbers of summary.json in
 * its verdict and its headline boxes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReportPageIT {

    /** Page width in CSS pixels. */
    private static final int WIDTH = 1280;
    /**
     * A drawn chart has at least this many pixels of a series' colour; axes, grid and text are grey, so a blank one has
     * none. Not higher: a short run's throughput line once drew 273 (the 100 ms buckets of a 2 s run at 1,280 px).
     */
    private static final int MIN_COLOURED_PIXELS = 100;

    /** summary.json's value for each headline key on the page. */
    private static final Map<String, String> SUMMARY_PATHS = Map.of(
            "throughput", "throughput",
            "wallSeconds", "wallSeconds",
            "successful", "successful",
            "failed", "failed",
            "latencyMs.mean", "latencyMs.mean",
            "latencyMs.p50", "latencyMs.p50",
            "latencyMs.p99", "latencyMs.p99",
            "latencyMs.p999", "latencyMs.p999",
            "latencyMs.max", "latencyMs.max");

    /** A series whose highest point lies lower than this share of the plot's height lies flat against the axis. */
    private static final double FLAT = 0.05;

    /**
     * Per chart and series: where its highest value is drawn, as a share of the plot's height above the bottom, and
     * whether the y scale holds its whole range; the charts' objects are {@code window.reportPlots}.
     */
    private static final String SERIES_HEIGHTS = "Object.entries(window.reportPlots).flatMap(([id, u]) =>"
            + " u.series.slice(1).map((s, i) => {"
            + "  const v = u.data[i + 1].filter(x => x != null && isFinite(x));"
            + "  if (!v.length) return {id, label: s.label, empty: true};"
            + "  const max = Math.max(...v), min = Math.min(...v), h = u.bbox.height / devicePixelRatio;"
            + "  return {id, label: s.label, max, min, yMin: u.scales.y.min, yMax: u.scales.y.max,"
            + "          height: 1 - u.valToPos(max, 'y') / h};"
            + " }))";

    /** Every legend's value cell as it reads without a hover. */
    private static final String LEGEND_VALUES = "[...document.querySelectorAll('figure.chart')].flatMap(f =>"
            + " [...f.querySelectorAll('.u-legend .u-series')].map(r =>"
            + "  [f.querySelector('div').id + ' ' + r.querySelector('.u-label').textContent,"
            + "   r.querySelector('.u-value').textContent]))";

    /** Each table wider than the box it is shown in (a scroll bar in a 1,280 px window). */
    private static final String WIDE_TABLES = "[...document.querySelectorAll('table')]"
            + ".filter(t => t.scrollWidth > t.clientWidth + 1)"
            + ".map(t => t.querySelector('th').textContent + ': ' + t.scrollWidth + ' > ' + t.clientWidth)";

    @TempDir
    Path work;

    @Test
    void aSweepsReportOpensOfflineDrawsEveryChartAndShowsTheSummarysNumbers() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        Main main = new Main(ps, ps, EmbeddedTarget::start, false, work);
        int exit = main.run(new String[] {"-t", "2,4", "-s", "150", "-m", "2", "--baseline", "30", "--out", "out"});
        assertEquals(0, exit, out.toString(StandardCharsets.UTF_8));
        Path report = work.resolve("out").resolve(HtmlReport.FILE);
        assertTrue(Files.isRegularFile(report), "report.html written");

        try (HeadlessChromium browser = HeadlessChromium.start(WIDTH, 1000)) {
            browser.offline();
            browser.open(report);
            io.upic.liftride.cluster.Poll.until(
                    "every chart drawn", Duration.ofSeconds(20), () -> drawnCharts(browser) == chartCount(browser));

            assertEquals(List.of(), browser.errors(), "no console error, no uncaught exception, no blocked fetch");
            for (String url : browser.requestedUrls()) {
                assertTrue(url.startsWith("file:") || url.startsWith("data:"), "a request left the page: " + url);
            }
            assertFalse(browser.requestedUrls().isEmpty(), "the page itself was seen as a request");

            List<double[]> charts = browser.boxes("figure.chart canvas");
            assertEquals(2 + 2 * 4, charts.size(), "2 sweep charts, 4 per run (no failures): " + charts.size());
            for (double[] b : charts) {
                assertTrue(b[2] > 200 && b[3] > 100, "chart area " + b[2] + " x " + b[3]);
                BufferedImage shot = browser.screenshot(b[0], b[1], b[2], b[3]);
                int coloured = HeadlessChromium.colouredPixels(shot);
                assertTrue(
                        coloured >= MIN_COLOURED_PIXELS,
                        "chart at y=" + b[1] + " has " + coloured + " coloured pixels: not drawn?");
            }

            for (String run : List.of("t2", "t4")) {
                JsonObject summary = JsonParser.parseString(Files.readString(
                                work.resolve("out").resolve(run).resolve(SummaryJson.FILE)))
                        .getAsJsonObject();
                JsonObject shown = browser.eval("Object.fromEntries([...document.querySelectorAll("
                                + "'[data-scope=\"" + run + "\"] [data-metric]')].map(e => [e.dataset.metric,"
                                + " e.dataset.value]))")
                        .getAsJsonObject();
                assertEquals(SUMMARY_PATHS.keySet(), shown.keySet(), run + ": the headline keys");
                SUMMARY_PATHS.forEach((key, path) -> {
                    double expected = value(summary, path);
                    double onPage = Double.parseDouble(shown.get(key).getAsString());
                    assertEquals(expected, onPage, Math.abs(expected) * 1e-12, run + " " + key);
                });
            }
            assertNoSeriesFlat(browser);
            assertLegendsShowValues(browser);
            assertEquals(List.of(), strings(browser.eval(WIDE_TABLES)), "tables wider than a 1,280 px window");
            for (String run : List.of("t2", "t4")) {
                assertVerdictIsTheSummarys(browser, run);
            }
            browser.screenshotPage(Path.of("target", "report-page", "report.png"), WIDTH);
        }
    }

    private static void assertNoSeriesFlat(HeadlessChromium browser) throws Exception {
        int seen = 0;
        for (JsonElement e : browser.eval(SERIES_HEIGHTS).getAsJsonArray()) {
            JsonObject s = e.getAsJsonObject();
            if (s.has("empty")) {
                continue;
            }
            seen++;
            String what = s.get("id").getAsString() + " " + s.get("label").getAsString() + " " + s;
            assertTrue(s.get("height").getAsDouble() >= FLAT, "lies flat against the x axis: " + what);
            assertTrue(s.get("yMax").getAsDouble() >= s.get("max").getAsDouble(), "drawn above the axis: " + what);
        }
        assertTrue(seen >= 20, "series measured: " + seen);
    }

    private static void assertLegendsShowValues(HeadlessChromium browser) throws Exception {
        JsonArray rows = browser.eval(LEGEND_VALUES).getAsJsonArray();
        assertTrue(rows.size() >= 20, "legend rows: " + rows);
        for (JsonElement r : rows) {
            String value = r.getAsJsonArray().get(1).getAsString().strip();
            assertFalse(
                    value.isEmpty() || value.equals("-") || value.equals("--"),
                    "legend without a value before a hover: " + r);
        }
    }

    /** The verdict row of {@code run}: each data-value is summary.json's, and its text shows it. */
    private void assertVerdictIsTheSummarys(HeadlessChromium browser, String run) throws Exception {
        JsonObject summary = JsonParser.parseString(
                        Files.readString(work.resolve("out").resolve(run).resolve(SummaryJson.FILE)))
                .getAsJsonObject();
        JsonObject cells = browser.eval("Object.fromEntries([...document.querySelectorAll("
                        + "'table.verdict tr[data-scope=\"" + run + "\"] td[data-key]')].map(e => [e.dataset.key,"
                        + " [e.dataset.value, e.textContent]]))")
                .getAsJsonObject();
        assertEquals(
                Set.of("thresholdsPassed", "server.delta", "failed", "throughput", "prediction.error"),
                cells.keySet(),
                run + ": the verdict's keys");
        assertShown(cells, "failed", summary.get("failed").getAsDouble(), run);
        assertShown(cells, "throughput", summary.get("throughput").getAsDouble(), run);
        JsonObject server = summary.getAsJsonObject("server");
        assertTrue(server.get("checked").getAsBoolean(), run + ": the embedded server's count is read");
        assertShown(cells, "server.delta", server.get("delta").getAsDouble(), run);
        JsonElement prediction = summary.get("prediction");
        assertFalse(prediction.isJsonNull(), run + ": a baseline ran, so a prediction exists");
        double error = summary.get("wallSeconds").getAsDouble()
                        / prediction.getAsJsonObject().get("wallSeconds").getAsDouble()
                - 1;
        assertShown(cells, "prediction.error", error, run);
        assertTrue(summary.getAsJsonArray("thresholds").isEmpty(), run + ": no --threshold given");
        assertEquals("", cells.getAsJsonArray("thresholdsPassed").get(0).getAsString(), run + ": no threshold");
    }

    private static void assertShown(JsonObject cells, String key, double expected, String run) {
        JsonArray cell = cells.getAsJsonArray(key);
        double onPage = Double.parseDouble(cell.get(0).getAsString());
        assertEquals(expected, onPage, Math.abs(expected) * 1e-9, run + " verdict " + key);
        String text = cell.get(1).getAsString();
        String shown = key.equals("prediction.error")
                ? String.format(Locale.US, "%+.1f%%", 100 * expected)
                : String.format(Locale.US, "%,.0f", expected);
        assertTrue(text.contains(shown), run + " verdict " + key + " shows " + shown + ": " + text);
    }

    private static List<String> strings(JsonElement array) {
        List<String> l = new ArrayList<>();
        array.getAsJsonArray().forEach(e -> l.add(e.getAsString()));
        return l;
    }

    private static int drawnCharts(HeadlessChromium b) {
        try {
            return b.eval("document.querySelectorAll('figure.chart > div[data-drawn]').length")
                    .getAsInt();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int chartCount(HeadlessChromium b) {
        try {
            return b.eval("document.querySelectorAll('figure.chart > div').length")
                    .getAsInt();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static double value(JsonObject o, String path) {
        JsonElement e = o;
        for (String part : path.split("\\.")) {
            e = e.getAsJsonObject().get(part);
        }
        return e.getAsDouble();
    }
}
