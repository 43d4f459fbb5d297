package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.part2.html.ChartSpec;
import io.upic.liftride.client.part2.html.HtmlPage;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RunComparison} as one self-contained HTML page ({@link HtmlPage}: works offline, nothing fetched): the
 * verdict, what was compared, the whole run's table, the two sides' charts overlaid ({@link CompareCharts}), then
 * each phase's table; regressions in bold. Stateless and thread-safe.
 */
public final class CompareHtml {

    private static final List<String> HEADER = List.of("metric", "baseline", "candidate", "change", "band", "verdict");
    private static final List<Boolean> RIGHT = List.of(false, true, true, true, true, false);

    private CompareHtml() {}

    /** The page. */
    public static String render(RunComparison c) {
        HtmlPage page = new HtmlPage("compare: candidate vs baseline");
        page.heading(1, "Candidate vs baseline", null);
        if (c.exitCode() == 0) {
            page.paragraph("**No regression** past the band.");
        } else {
            page.warning(c.verdictLine());
        }
        page.list(CompareHeader.lines(c).stream()
                .map(l -> l.replaceAll("\\s{2,}", " "))
                .toList());
        List<RunComparison.Scope> scopes = c.scopes();
        table(page, scopes.get(0)); // the whole run, which decides, first
        CompareCharts charts = CompareCharts.of(c);
        if (!charts.charts().isEmpty()) {
            page.heading(2, "Charts", "charts");
            for (ChartSpec spec : charts.charts()) {
                page.chart(spec);
            }
        }
        charts.notes().forEach(page::paragraph);
        scopes.subList(1, scopes.size()).forEach(s -> table(page, s));
        return page.render();
    }

    private static void table(HtmlPage page, RunComparison.Scope s) {
        page.heading(2, s.gated() ? "Whole run" : "Phase " + s.name() + " (not gated)", null);
        page.table(HEADER, RIGHT, rows(s));
    }

    private static List<List<String>> rows(RunComparison.Scope s) {
        List<List<String>> rows = new ArrayList<>();
        for (MetricRow r : s.rows()) {
            List<String> cells = new ArrayList<>(CompareText.cells(r.label(), r));
            if (r.verdict() == Verdict.REGRESSION || r.verdict() == Verdict.WORSE) {
                cells.set(3, "**" + cells.get(3) + "**");
                cells.set(5, "**" + cells.get(5) + "**");
            }
            rows.add(cells);
        }
        return rows;
    }
}
