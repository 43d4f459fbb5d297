package io.upic.liftride.client.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A table as cells of text, formatted once: the console writes it as aligned columns ({@link #text()}), the
 * reports as Markdown and HTML tables. A cell may hold {@code **bold**} (a total row). Immutable.
 *
 * @param header the column names
 * @param right  per column: right-aligned (a number)
 * @param rows   the cells, one list per row, as many as columns
 */
public record Table(List<String> header, List<Boolean> right, List<List<String>> rows) {

    public Table {
        header = List.copyOf(header);
        right = List.copyOf(right);
        rows = List.copyOf(rows);
    }

    /** A table from its header "a|b|c", its alignment "lrr" (l: left, r: right) and its rows. */
    public static Table of(String header, String align, List<List<String>> rows) {
        List<Boolean> right = new ArrayList<>();
        for (char c : align.toCharArray()) {
            right.add(c == 'r');
        }
        return new Table(List.of(header.split("\\|", -1)), right, rows);
    }

    /** This table's first {@code n} columns. */
    public Table columns(int n) {
        return new Table(
                header.subList(0, n),
                right.subList(0, n),
                rows.stream().map(r -> r.subList(0, n)).toList());
    }

    /** A row's cells: {@code format} (with "|" between the cells) applied to {@code args} in {@link Locale#US}. */
    public static List<String> cells(String format, Object... args) {
        return List.of(String.format(Locale.US, format, args).split("\\|", -1));
    }

    /** The table as aligned plain-text lines, two spaces before each column, without bold markers. */
    public List<String> text() {
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        rows.forEach(r -> all.add(r.stream().map(c -> c.replace("**", "")).toList()));
        int[] width = new int[header.size()];
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        List<String> lines = new ArrayList<>(all.size());
        for (List<String> row : all) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String pad = " ".repeat(width[i] - row.get(i).length());
                b.append("  ").append(right.get(i) ? pad + row.get(i) : row.get(i) + pad);
            }
            lines.add(b.toString().stripTrailing());
        }
        return lines;
    }
}
