package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.report.Table;
import io.upic.liftride.client.report.VerboseSummary;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The report model on the console after client-part1's account; numbers use {@link Locale#US}. Stateless. */
public final class ConsoleReport {

    private static final Locale L = Locale.US;

    private ConsoleReport() {}

    /** The run's folder and files in one line, its checks only when they fail, and its problems; more with verbose. */
    public static void printRun(PrintStream out, RunOutput o, ReportModel.Run run, Path base, boolean verbose) {
        if (verbose) {
            VerboseSummary.print(out, ReportTables.latency(run.summary()));
            out.println("  checks: " + MarkdownReport.checksText(run.checks()));
            String cpu = VerboseSummary.cpu(o.report()); // client-part1's account printed it already
            run.notes().stream().filter(n -> !n.equals(cpu)).forEach(n -> out.println("  " + n));
            out.println("  charts: " + String.join(", ", names(base, run.charts())));
            out.println("  " + run.generated());
        }
        var csv = o.csv();
        out.printf(
                L,
                "  %-10s %s/: requests.csv (%,d rows%s), %s%ssummary.json, %d charts%n",
                "files",
                rel(base, o.dir()),
                csv.rowsWritten(),
                o.rowsMatch() ? "" : String.format(L, " != %,d attempts: MISMATCH", o.attempts()),
                o.histogramsMatch()
                        ? ""
                        : String.format(
                                L,
                                "histograms %,d values != %,d attempts: MISMATCH, ",
                                o.metrics().recordedAttempts(),
                                o.attempts()),
                o.hlog() == null ? "" : HdrLog.FILE + ", ",
                o.charts().size());
        for (String p : o.problems()) {
            out.println("  PROBLEM (instrumentation): " + p);
        }
        out.flush();
    }

    /**
     * A run's open-model rows (a ramp's per stage) with each stage not offered in full, and its per-operation rows
     * (--mix), as the documents show them; nothing for a closed run without a mix.
     */
    public static void printRatesAndOperations(PrintStream out, ReportModel.Run run) {
        Table open = OpenModelReport.table(run);
        if (open != null) {
            VerboseSummary.print(out, open);
            OpenModelReport.shortfalls(run).forEach(line -> out.println("  " + line));
        }
        Table operations = ReportTables.operations(run);
        if (operations != null) {
            VerboseSummary.print(out, operations);
        }
        out.flush();
    }

    /** The sweep's latency and measured concurrency per run, and its charts. */
    public static void printSweep(PrintStream out, ReportModel.Sweep sweep, Path base) {
        out.println();
        VerboseSummary.print(out, ReportTables.sweepLatency(sweep));
        out.println("  charts: " + String.join(", ", names(base, sweep.charts())));
        out.flush();
    }

    /** A comparison: what was compared, one table per scope, and the verdict last with the exit code. */
    public static void print(PrintStream out, ReportModel.Comparison c) {
        c.facts().forEach(f -> out.println(String.format(L, "%-10s %s", f.label() + ":", f.value())));
        for (Table t : c.tables()) {
            out.println();
            VerboseSummary.print(out, t);
        }
        out.println();
        out.println("Result: " + c.verdict() + " (exit " + c.exitCode() + ")");
        out.flush();
    }

    private static List<String> names(Path base, List<ChartFile> charts) {
        return charts.stream().map(f -> rel(base, f.file())).toList();
    }

    /** {@code file} relative to {@code base} when it is inside it, for shorter lines. */
    static String rel(Path base, Path file) {
        if (base == null) {
            return file.toString();
        }
        Path b = base.toAbsolutePath().normalize();
        Path f = file.toAbsolutePath().normalize();
        return f.startsWith(b) ? b.relativize(f).toString() : file.toString();
    }
}
