package io.upic.liftride.client.report;

import io.upic.liftride.client.cli.Workload;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuScope;
import io.upic.liftride.client.prediction.Prediction;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * What {@code --verbose} adds to the {@link BriefSummary} on the console, with the reports' {@link RunTables}.
 * Numbers use {@link Locale#US}. Stateless and thread-safe; callers serialize output to one stream.
 */
public final class VerboseSummary {

    private static final Locale L = Locale.US;

    private VerboseSummary() {}

    /** The baseline's line. */
    public static void printBaseline(PrintStream out, Baseline.Result b) {
        String warmup =
                b.warmupRequests() > 0 ? String.format(L, " after %,d warm-up requests", b.warmupRequests()) : "";
        String cpu = Double.isNaN(b.cpuNanosPerRequest())
                ? ""
                : String.format(L, ", process CPU %.1f us per request", b.cpuNanosPerRequest() / 1e3);
        out.printf(
                L,
                "Baseline: %,d requests from 1 thread in %.3f s%s, %,d failed: mean latency W = %.3f ms%s%s%n",
                b.successful() + b.failed(),
                b.wallNanos() / 1e9,
                warmup,
                b.failed(),
                b.meanLatencyNanos() / 1e6,
                cpu,
                b.stopped() ? " (stopped early)" : "");
        out.flush();
    }

    /** The plan's phases and the rides' keys, and with --rate the schedule each thread follows. */
    public static void printPlan(PrintStream out, Workload c, LoadPlan plan) {
        out.printf(
                L,
                "  rides of resort %d, season %d, day %d%s%n",
                c.resortId(),
                c.seasonId(),
                c.dayId(),
                c.seed() == null ? "" : ", seed " + c.seed());
        OpenModel m = c.openModel();
        if (m != null) {
            out.printf(
                    L,
                    "  open model: every thread sends every %.3f ms whatever the answers take (%s req/s per thread)%n",
                    m.intervalNanos() / 1e6,
                    RunTables.number(m.ratePerSecond() / m.peakThreads()));
        }
        print(out, RunTables.plan(plan, m));
    }

    /** The predictions made before a run, printed before it starts. */
    public static void printForecast(PrintStream out, Prediction naive, Prediction model) {
        if (naive != null) {
            out.printf(
                    L,
                    "  predicted before the run: %s; naive N / W %.3f s, %,.0f req/s%n",
                    model == null
                            ? "no model (no CPU per request measured)"
                            : String.format(
                                    L,
                                    "model (MVA) %.3f s, %,.0f req/s",
                                    model.wallNanos() / 1e9,
                                    model.throughputPerSecond()),
                    naive.wallNanos() / 1e9,
                    naive.throughputPerSecond());
            out.flush();
        }
    }

    /** The tables of a finished run, its process CPU, Little's law against the measurement and the server's count. */
    public static void printResult(PrintStream out, RunReport report) {
        print(out, RunTables.account(report.summary()));
        print(out, RunTables.phases(report.summary()));
        out.println("  (a phase's throughput = its successful requests / its own duration; phases overlap, so they do"
                + " not add up; in flight = throughput x mean latency)");
        Table open = RunTables.openModel(report.result());
        if (open != null) {
            print(out, open);
            out.println("  (achieved = requests done / the phase's duration; send lag = how long after its intended"
                    + " time a request was sent: a late thread sends at once and catches up, it never skips)");
        }
        String cpu = cpu(report);
        if (cpu != null) {
            out.println("  " + cpu);
        }
        TheoryTable t = TheoryTable.of(report);
        if (t != null) {
            out.println(t.heading());
            t.models().forEach(line -> out.println("  " + line));
            print(out, RunTables.theory(t));
            out.println(
                    "  (" + TheoryTable.DIFF_NOTE + (t.model() != null ? "; " + TheoryTable.SCHEDULE_NOTE : "") + ")");
        }
        Reconciliation c = report.reconciliation();
        if (c.serverChecked()) {
            out.printf(
                    L,
                    "  server ridesStored %,d -> %,d: delta %,d%n",
                    c.storedBefore().getAsLong(),
                    c.storedAfter().getAsLong(),
                    c.serverDelta());
        }
        out.flush();
    }

    /** How busy this process kept the cores during the run, in one sentence; null when its CPU time is unknown. */
    public static String cpu(RunReport report) {
        return Double.isNaN(report.busyCores())
                ? null
                : String.format(
                        L,
                        "CPU: this JVM (%s) kept %.2f of %d cores busy, %.0f us per attempt.",
                        CpuScope.of(report.embeddedServer()).label(),
                        report.busyCores(),
                        report.cores(),
                        report.cpuNanosPerAttempt() / 1e3);
    }

    /** The sweep's runs with both predictions of their throughput. */
    public static void printSweep(PrintStream out, List<RunReport> reports) {
        out.println();
        print(out, RunTables.sweep(reports.stream().map(RunTables.SweepRow::of).toList()));
        out.println("  (" + TheoryTable.DIFF_NOTE + ")");
        out.flush();
    }

    /** {@code t} as aligned plain text. */
    public static void print(PrintStream out, Table t) {
        t.text().forEach(out::println);
    }
}
