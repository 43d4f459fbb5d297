package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real sweep's {@code report.html}, opened from disk in headless Chromium with the network off: it logs no
 * error, requests nothing but file: and data: URLs, draws every chart, and shows the numbers of summary.json.
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
            io.upic.liftride.testkit.Poll.until(
                    "every chart drawn", Duration.ofSeconds(20), () -> drawnCharts(browser) == chartCount(browser));

            assertEquals(List.of(), browser.errors(), "no console error, no uncaught exception, no blocked fetch");
            for (String url : browser.requestedUrls()) {
                assertTrue(url.startsWith("file:") || url.startsWith("data:"), "a request left the page: " + url);
            }
            assertFalse(browser.requestedUrls().isEmpty(), "the page itself was seen as a request");

            List<double[]> charts = browser.boxes("figure.chart canvas");
            assertEquals(2 + 2 * 3, charts.size(), "2 sweep charts, 3 per run: " + charts.size());
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
            browser.screenshotPage(Path.of("target", "report-page", "report.png"), WIDTH);
        }
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
