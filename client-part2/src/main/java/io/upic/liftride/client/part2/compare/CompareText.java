package io.upic.liftride.client.part2.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RunComparison} as plain text for the terminal: what was compared, the band, one aligned table per
 * scope (the whole run, then each phase) and the verdict line. Stateless and thread-safe.
 */
public final class CompareText {

    private static final List<String> HEADER = List.of("baseline", "candidate", "change", "band", "verdict");

    private CompareText() {}

    /** The whole text, lines ending in {@code \n}. */
    public static String render(RunComparison c) {
        StringBuilder b = new StringBuilder();
        for (String line : CompareHeader.lines(c)) {
            b.append(line).append('\n');
        }
        List<List<String>> table = new ArrayList<>();
        for (RunComparison.Scope s : c.scopes()) {
            List<String> head = new ArrayList<>();
            head.add(s.gated() ? "Whole run" : "Phase " + s.name());
            head.addAll(HEADER);
            table.add(head);
            for (MetricRow r : s.rows()) {
                table.add(cells("  " + r.label(), r));
            }
        }
        int[] widths = widths(table);
        for (List<String> row : table) {
            if (row.get(0).startsWith("  ")) {
                b.append(line(row, widths));
            } else {
                b.append('\n').append(line(row, widths));
            }
        }
        b.append('\n')
                .append("Result: ")
                .append(c.verdictLine())
                .append(" (exit ")
                .append(c.exitCode())
                .append(")\n");
        return b.toString();
    }

    /** A row's cells: label, baseline, candidate, change, band, verdict. */
    static List<String> cells(String label, MetricRow r) {
        return List.of(
                label,
                r.text(r.baseline()),
                r.text(r.candidate()),
                r.changeText(),
                NoiseBand.text(r.band()),
                r.verdict().text());
    }

    private static int[] widths(List<List<String>> table) {
        int[] w = new int[HEADER.size() + 1];
        for (List<String> row : table) {
            for (int i = 0; i < row.size(); i++) {
                w[i] = Math.max(w[i], row.get(i).length());
            }
        }
        return w;
    }

    /** The label left-aligned, the numbers right-aligned, the verdict left-aligned. */
    private static String line(List<String> row, int[] w) {
        StringBuilder b = new StringBuilder(pad(row.get(0), w[0], false));
        for (int i = 1; i < row.size(); i++) {
            b.append("  ").append(pad(row.get(i), w[i], i < row.size() - 1));
        }
        return b.toString().stripTrailing() + "\n";
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return right ? fill + s : s + fill;
    }
}
