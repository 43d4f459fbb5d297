package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The statistics on the terminal, after client-part1's account of the run: in full ({@link #print}, --verbose), or
 * the one line saying where the files went ({@link #printBrief}). Numbers use {@link Locale#US} like client-part1's
 * output. Stateless.
 */
public final class StatsText {

    private static final Locale L = Locale.US;

    private StatsText() {}

    public static void print(PrintStream out, RunOutput o, Path base) {
        printLatency(out, o);
        printFiles(out, o, base);
    }

    /** The run's folder and files in one line, its checks only when they fail, and its problems. */
    public static void printBrief(PrintStream out, RunOutput o, Path base) {
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

    private static void printLatency(PrintStream out, RunOutput o) {
        out.println();
        out.println(
                "Latency statistics (ms): mean, min, max exact; percentiles from HdrHistogram (microseconds, 3 significant digits, nearest rank)");
        StringBuilder header = new StringBuilder(String.format(L, "  %-9s %-8s %10s", "scope", "attempts", "count"));
        for (String column : LatencyStats.COLUMNS) {
            header.append(String.format(L, " %9s", column));
        }
        out.println(header.append(String.format(L, " %14s %9s", "throughput", "in flight")));
        row(out, o.metrics().run(), true);
        for (ScopeStats p : o.metrics().phases()) {
            row(out, p, false);
        }
        out.println("  (throughput = successful requests / seconds of the scope; in flight = throughput x mean latency,"
                + " Little's law with measured numbers, next to the thread count)");
        if (o.metrics().run().fromIntended() != null) {
            out.println(
                    "  (all = every attempt from its actual send; intended = every attempt from its request's intended"
                            + " send time in the schedule. " + OpenModelReport.WHY_TWO_LATENCIES.replace("*", "")
                            + ")");
        }
        for (ScopeStats s : o.metrics().phases()) {
            if (!s.started() || s.threads() == 0) { // a shard's empty share of a phase: nothing in flight
                continue;
            }
            out.printf(
                    L,
                    "  %-9s in flight %6.1f of %d threads (%.0f%%)%n",
                    s.name(),
                    s.measuredConcurrency(),
                    s.threads(),
                    100.0 * s.measuredConcurrency() / s.threads());
        }
    }

    private static void printFiles(PrintStream out, RunOutput o, Path base) {
        var csv = o.csv();
        out.printf(
                L,
                "CSV: %,d rows written, %,d attempts made: %s -> %s (%s)%n",
                csv.rowsWritten(),
                o.attempts(),
                o.rowsMatch() ? "OK" : "MISMATCH",
                rel(base, csv.file()),
                bytes(csv.bytes()));
        out.printf(
                L,
                "Histograms: %,d values recorded, %,d attempts made: %s%n",
                o.metrics().recordedAttempts(),
                o.attempts(),
                o.histogramsMatch() ? "OK" : "MISMATCH");
        var c = o.chunks();
        out.printf(
                L,
                "Recording memory: %d chunks of %d rows allocated (cap %d), %,d writer stalls%s%n",
                c.allocated(),
                c.rowsPerChunk(),
                c.maxChunks(),
                c.stalls(),
                c.stalls() == 0 ? "" : String.format(L, " (%.3f s waited)", c.stallNanos() / 1e9));
        if (csv.cpuNanos() >= 0 && csv.rowsWritten() > 0) {
            out.printf(
                    L,
                    "CSV writer thread: %.3f s CPU beside the workers (%.0f ns per row), %,d idle wake-ups%n",
                    csv.cpuNanos() / 1e9,
                    csv.cpuNanosPerRow(),
                    csv.idleParks());
        }
        if (o.hlog() != null) {
            out.println("Histogram log: " + rel(base, o.hlog()));
        }
        for (ChartFile f : o.charts()) {
            out.println("Chart: " + rel(base, f.file()));
        }
        for (String p : o.problems()) {
            out.println("PROBLEM (instrumentation): " + p);
        }
        out.printf(
                L,
                "Statistics, charts and files generated in %.3f s (CSV drained %.3f s after the last worker)%n",
                o.reportNanos() / 1e9,
                csv.drainNanos() / 1e9);
        out.flush();
    }

    private static void row(PrintStream out, ScopeStats s, boolean run) {
        if (!s.started()) {
            out.printf(L, "  %-9s %-8s %10s%n", s.name(), "-", "not started");
            return;
        }
        stats(
                out,
                s.name(),
                "all",
                s.all(),
                String.format(L, "%,9.1f req/s", s.throughputPerSecond()),
                String.format(L, "%9.1f", s.measuredConcurrency()));
        if (s.first().count() != s.all().count()) { // else every attempt was a first one: the same row again
            stats(out, "", "first", s.first(), "", "");
        }
        if (s.fromIntended() != null) {
            stats(out, "", "intended", s.fromIntended(), "", "");
        }
    }

    private static void stats(
            PrintStream out, String scope, String attempts, LatencyStats l, String throughput, String inFlight) {
        if (l.count() == 0) {
            out.printf(L, "  %-9s %-8s %,10d%n", scope, attempts, 0);
            return;
        }
        StringBuilder row = new StringBuilder(String.format(L, "  %-9s %-8s %,10d", scope, attempts, l.count()));
        for (double v : l.columnsMillis()) {
            row.append(String.format(L, " %9.3f", v));
        }
        out.println(row.append(String.format(L, " %14s %9s", throughput, inFlight)));
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

    static String bytes(long n) {
        if (n < 0) {
            return "size unknown";
        }
        if (n < 1024 * 1024) {
            return String.format(L, "%,.1f KB", n / 1024.0);
        }
        return String.format(L, "%,.1f MB", n / (1024.0 * 1024));
    }
}
