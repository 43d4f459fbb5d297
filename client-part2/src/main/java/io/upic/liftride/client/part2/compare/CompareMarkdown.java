package io.upic.liftride.client.part2.compare;

import java.util.List;

/**
 * A {@link RunComparison} as GitHub-flavoured markdown for a pull-request comment: the verdict first, the whole
 * run's table with regressions in bold and marked, the phases folded in a {@code <details>} block. Stateless and
 * thread-safe.
 */
public final class CompareMarkdown {

    private CompareMarkdown() {}

    /** The markdown document. */
    public static String render(RunComparison c) {
        StringBuilder b = new StringBuilder("### Load test: candidate vs baseline\n\n");
        b.append(c.exitCode() == 0 ? "**No regression** past the band." : "**" + escape(c.verdictLine()) + "**")
                .append("\n\n");
        for (String line : CompareHeader.lines(c)) {
            b.append("- ").append(escape(line.replaceAll("\\s{2,}", " "))).append('\n');
        }
        b.append('\n');
        List<RunComparison.Scope> scopes = c.scopes();
        table(b, scopes.get(0));
        if (scopes.size() > 1) {
            b.append("\n<details><summary>Per phase (not gated)</summary>\n\n");
            for (RunComparison.Scope s : scopes.subList(1, scopes.size())) {
                table(b, s);
                b.append('\n');
            }
            b.append("</details>\n");
        }
        return b.toString();
    }

    private static void table(StringBuilder b, RunComparison.Scope s) {
        b.append("| ")
                .append(s.gated() ? "Whole run" : "Phase " + escape(s.name()))
                .append(" | Baseline | Candidate | Change | Band | Verdict |\n")
                .append("|---|---:|---:|---:|---:|---|\n");
        for (MetricRow r : s.rows()) {
            List<String> cells = CompareText.cells(r.label(), r);
            boolean bad = r.verdict() == Verdict.REGRESSION || r.verdict() == Verdict.WORSE;
            b.append("| ").append(escape(cells.get(0)));
            for (int i = 1; i <= 4; i++) {
                String cell = escape(cells.get(i));
                b.append(" | ").append(bad && i == 3 ? "**" + cell + "**" : cell);
            }
            b.append(" | ").append(verdict(r.verdict())).append(" |\n");
        }
    }

    private static String verdict(Verdict v) {
        return switch (v) {
            case REGRESSION -> ":x: **REGRESSION**";
            case WORSE -> ":warning: worse";
            case BETTER -> ":white_check_mark: better";
            default -> v.text();
        };
    }

    /** Table cells and text are literal: the characters markdown would read are escaped. */
    static String escape(String s) {
        return s.replace("\\", "\\\\")
                .replace("|", "\\|")
                .replace("*", "\\*")
                .replace("_", "\\_")
                .replace("<", "&lt;")
                .replace(">", "&gt;");
    }
}
