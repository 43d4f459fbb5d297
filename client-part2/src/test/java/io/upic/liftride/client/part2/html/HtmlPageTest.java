package io.upic.liftride.client.part2.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlPageTest {

    private static ChartSpec chart(String id, double... y) {
        double[] x = new double[y.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = i * 0.1;
        }
        return new ChartSpec(
                id,
                "a <chart>",
                "s",
                "ms",
                ChartSpec.XAxis.SECONDS,
                ChartSpec.YAxis.LINEAR,
                x,
                List.of(ChartSpec.Line.solid("p99", "#d62728", y)),
                List.of(new ChartSpec.Band("peak", 0, 0.2, "#ff7f0e")));
    }

    private static JsonObject data(String html) {
        Matcher m = Pattern.compile(
                        "<script type=\"application/json\" id=\"report-data\">(.*?)</script>", Pattern.DOTALL)
                .matcher(html);
        assertTrue(m.find(), "the data element");
        return JsonParser.parseString(m.group(1)).getAsJsonObject();
    }

    @Test
    void thePageInlinesUPlotWithItsLicenceAndLoadsNothing() {
        String html = new HtmlPage("t").chart(chart("c1", 1, 2)).render();
        assertTrue(html.contains(UPlot.SCRIPT), "uPlot inlined");
        assertTrue(html.contains("Permission is hereby granted"), "its MIT licence kept beside it");
        assertTrue(html.contains("default-src 'none'"), "a CSP that forbids fetching");
        assertFalse(
                Pattern.compile("<(script|link|img)[^>]+(src|href)=")
                        .matcher(html)
                        .find(),
                "no external resource");
    }

    @Test
    void textIsEscapedAndNumbersWithoutValueAreGaps() {
        String html = new HtmlPage("</title><script>alert(1)</script>")
                .paragraph("a `code` and *em* and <b>")
                .chart(chart("c1", 1.23456789, Double.NaN, 3))
                .render();
        assertFalse(html.contains("<script>alert(1)"), html);
        assertTrue(html.contains("<code>code</code> and <em>em</em> and &lt;b&gt;"));
        JsonObject c = data(html).getAsJsonArray("charts").get(0).getAsJsonObject();
        var y = c.getAsJsonArray("lines").get(0).getAsJsonObject().getAsJsonArray("y");
        assertEquals(1.23457, y.get(0).getAsDouble(), 0, "6 significant digits");
        assertTrue(y.get(1).isJsonNull(), "NaN is a gap");
        assertEquals("a <chart>", c.get("title").getAsString(), "the JSON decodes to the text");
        assertFalse(html.contains("\"a <chart>\""), "but < is escaped inside the script element");
    }

    @Test
    void headlineNumbersCarryTheirKeyAndExactValue() {
        String html = new HtmlPage("t")
                .metrics("t64", List.of(new HtmlPage.Metric("throughput", "throughput", 1234.5678, "1,234.6 req/s")))
                .render();
        assertTrue(html.contains("data-scope=\"t64\""));
        assertTrue(html.contains("data-metric=\"throughput\" data-value=\"1234.5678\">1,234.6 req/s<"), html);
    }

    @Test
    void chartsAreCheckedWhenDescribed() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new HtmlPage("t").chart(chart("c1", 1)).chart(chart("c1", 2)));
        assertThrows(IllegalArgumentException.class, () -> chart("1 bad", 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> new ChartSpec(
                        "c",
                        "t",
                        "x",
                        "y",
                        ChartSpec.XAxis.NINES,
                        ChartSpec.YAxis.LOG,
                        new double[] {0, 1},
                        List.of(ChartSpec.Line.solid("a", "#000", new double[] {1})),
                        List.of()));
    }
}
