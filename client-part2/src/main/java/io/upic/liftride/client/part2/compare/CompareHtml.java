package io.upic.liftride.client.part2.compare;

import java.util.List;

/**
 * A {@link RunComparison} as one self-contained HTML page (no script, no network): the header and one table
 * per scope, regressions marked. Stateless and thread-safe.
 */
public final class CompareHtml {

    private CompareHtml() {}

    /** The page. */
    public static String render(RunComparison c) {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<title>compare: candidate vs baseline</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}")
                .append("td,th{border:1px solid #ccc;padding:.2em .6em}td.n{text-align:right}")
                .append(
                        ".REGRESSION{background:#fdd;font-weight:bold}.worse{background:#ffe9c7}.better{background:#dfd}")
                .append("</style></head><body>\n<h1>Candidate vs baseline</h1>\n<p><b>")
                .append(escape(c.verdictLine()))
                .append("</b></p>\n<ul>\n");
        for (String line : CompareHeader.lines(c)) {
            b.append("<li>").append(escape(line.replaceAll("\\s{2,}", " "))).append("</li>\n");
        }
        b.append("</ul>\n");
        for (RunComparison.Scope s : c.scopes()) {
            table(b, s);
        }
        return b.append("</body></html>\n").toString();
    }

    private static void table(StringBuilder b, RunComparison.Scope s) {
        b.append("<table><caption>")
                .append(s.gated() ? "Whole run" : "Phase " + escape(s.name()) + " (not gated)")
                .append("</caption>\n<tr><th>metric</th><th>baseline</th><th>candidate</th><th>change</th>")
                .append("<th>band</th><th>verdict</th></tr>\n");
        for (MetricRow r : s.rows()) {
            List<String> cells = CompareText.cells(r.label(), r);
            String cls = r.verdict().text().replace(' ', '-').replace('/', '-');
            b.append("<tr class=\"")
                    .append(cls)
                    .append("\"><td>")
                    .append(escape(cells.get(0)))
                    .append("</td>");
            for (int i = 1; i <= 4; i++) {
                b.append("<td class=\"n\">").append(escape(cells.get(i))).append("</td>");
            }
            b.append("<td>").append(escape(cells.get(5))).append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    /** Text as HTML text: {@code & < > "} escaped. */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
