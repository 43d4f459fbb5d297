package io.upic.liftride.client.report;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuScope;
import io.upic.liftride.client.prediction.Prediction;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Formats the plan, the baseline, a run's account and a sweep table for the terminal. Numbers use
 * {@link Locale#US} (180,000) whatever the machine's locale. Stateless and thread-safe; callers
 * serialize output to one stream.
 */
public final class SummaryPrinter {

    private static final Locale L = Locale.US;

    private SummaryPrinter() {}

    /** The plan, printed before the run starts, with its total. */
    public static void printPlan(PrintStream out, RunConfig c, LoadPlan plan, String serverUrl, boolean embedded) {
        out.printf(
                L,
                "Server %s%s, transport %s%n",
                serverUrl,
                embedded ? " (embedded, started by this client)" : "",
                c.transport().cliName());
        out.printf(
                L,
                "Plan %s: %,d requests; -t %d -s %,d -l %d -m %d; resort %d, season %d, day %d%s%n",
                plan.planName(),
                plan.totalRequests(),
                plan.numThreads(),
                plan.numSkiers(),
                c.lifts(),
                plan.numRuns(),
                c.resortId(),
                c.seasonId(),
                c.dayId(),
                c.seed() == null ? "" : ", seed " + c.seed());
        if (!c.shard().whole()) {
            out.println(ShardNotes.planLine(c.shard(), c.wholePlan(), plan));
        }
        out.printf(
                L,
                "  %-9s %7s %13s %10s %8s  %s%n",
                "phase",
                "threads",
                "skiers/thread",
                "requests",
                "minutes",
                "starts");
        PlannedPhase previous = null;
        for (PlannedPhase p : plan.phases()) {
            String skiers = p.minSkiersPerThread() == p.maxSkiersPerThread()
                    ? Integer.toString(p.minSkiersPerThread())
                    : p.minSkiersPerThread() + "-" + p.maxSkiersPerThread();
            String starts = previous == null
                    ? "with the run"
                    : p.startAfter() == 0
                            ? "with " + previous.name()
                            : String.format(
                                    L,
                                    "after %d of %d %s threads finish (%s%%, rounded up)",
                                    p.startAfter(),
                                    previous.threads(),
                                    previous.name(),
                                    trim(p.phase().startAfterFraction() * 100));
            out.printf(
                    L,
                    "  %-9s %7d %13s %,10d %8s  %s%n",
                    p.name(),
                    p.threads(),
                    skiers,
                    p.requests(),
                    p.phase().startMinute() + "-" + p.phase().endMinute(),
                    starts);
            previous = p;
        }
        OpenModelSummary.printPlan(out, c, plan);
        out.flush();
    }

    /** The baseline's line. */
    public static void printBaseline(PrintStream out, Baseline.Result b) {
        String warmup =
                b.warmupRequests() > 0 ? String.format(L, " after %,d warm-up requests", b.warmupRequests()) : "";
        String cpu = Double.isNaN(b.cpuNanosPerRequest())
                ? ""
                : String.format(L, ", process CPU %.1f us per request", b.cpuNanosPerRequest() / 1e3)
                        + (Double.isNaN(b.cpuLessJitNanosPerRequest())
                                ? " (D)"
                                : String.format(
                                        L,
                                        " of which %.1f us outside the JIT compiler threads",
                                        b.cpuLessJitNanosPerRequest() / 1e3));
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

    /** The account of one run: totals, phases, failures, Little's law, reconciliation. */
    public static void printResult(PrintStream out, RunReport report) {
        RunResult r = report.result();
        out.println();
        if (r.stopped()) {
            out.printf(
                    L,
                    "STOPPED before the end: partial account (done %,d = %,d successful + %,d failed; not sent %,d)%n",
                    r.requests().successful() + r.requests().failed(),
                    r.requests().successful(),
                    r.requests().failed(),
                    r.requests().notSent());
        }
        out.printf(L, "Result: plan %s, %d threads%n", r.planName(), r.numThreads());
        out.printf(L, "  successful requests  %,12d%n", r.requests().successful());
        out.printf(L, "  failed requests      %,12d%n", r.requests().failed());
        if (r.requests().notSent() > 0) {
            out.printf(L, "  not sent             %,12d%n", r.requests().notSent());
        }
        out.printf(L, "  retries              %,12d%n", r.requests().retries());
        out.printf(
                L,
                "  wall time            %12.3f s   (before phase 1 starts to after the last thread finishes)%n",
                r.wallNanos() / 1e9);
        out.printf(
                L,
                "  throughput           %,12.1f req/s  (successful requests / wall seconds)%n",
                r.throughputPerSecond());
        printPhases(out, r);
        out.println(
                "  (phase throughput = its successful requests / its own duration; phases overlap, so they do not add up;"
                        + " latency = mean per attempt; in flight = sum of latencies / duration)");
        if (!Double.isNaN(report.busyCores())) {
            out.printf(
                    L,
                    "  CPU: this JVM (%s) kept %.2f of %d cores busy, %.0f us per attempt (of which the JIT compiler"
                            + " threads %.1f us, %.2f s)%n",
                    CpuScope.of(report.embeddedServer()).label(),
                    report.busyCores(),
                    report.cores(),
                    report.cpuNanosPerAttempt() / 1e3,
                    report.jitNanosPerAttempt() / 1e3,
                    report.jitCpuNanos() / 1e9);
        }
        OpenModelSummary.printRates(out, r);
        if (!r.failuresByCause().isEmpty()) {
            out.println("  failures by cause: " + causes(r.failuresByCause()));
        }
        for (String problem : r.problems()) {
            out.println("  PROBLEM: " + problem);
        }
        printTheory(out, report);
        printReconciliation(out, report.reconciliation());
        out.flush();
    }

    private static void printPhases(PrintStream out, RunResult r) {
        out.printf(
                L,
                "  %-9s %7s %10s %10s %7s %10s %13s %10s %9s%n",
                "phase",
                "threads",
                "requests",
                "successful",
                "failed",
                "duration",
                "throughput",
                "latency",
                "in flight");
        for (PhaseResult p : r.phases()) {
            if (!p.started() || p.threads() == 0) {
                out.printf(
                        L,
                        "  %-9s %7d %,10d %10s %7s %10s%n",
                        p.name(),
                        p.threads(),
                        p.requests().planned(),
                        "-",
                        "-",
                        p.started() ? "no threads on this shard" : "not started");
                continue;
            }
            out.printf(
                    L,
                    "  %-9s %7d %,10d %,10d %,7d %8.3f s %,7.0f req/s %7.3f ms %9.1f%n",
                    p.name(),
                    p.threads(),
                    p.requests().planned(),
                    p.requests().successful(),
                    p.requests().failed(),
                    p.durationNanos() / 1e9,
                    p.throughputPerSecond(),
                    p.meanLatencyNanos() / 1e6,
                    p.measuredConcurrency());
        }
    }

    private static void printTheory(PrintStream out, RunReport report) {
        TheoryTable t = TheoryTable.of(report);
        if (t == null) {
            out.println(
                    "Little's law: no prediction (baseline skipped: --baseline 0, or it had no successful request)");
            return;
        }
        out.println(t.heading());
        t.models().forEach(line -> out.println("  " + line));
        boolean model = t.model() != null;
        String columns = "  %-36s %14s %14s %8s" + (model ? " %25s %8s%n" : "%n");
        out.printf(L, columns, "", "measured", "naive N / W", "diff", t.modelLabel(), "diff");
        for (TheoryTable.Row row : t.rows()) {
            out.printf(
                    L,
                    columns,
                    row.quantity(),
                    row.measuredText(),
                    row.naiveText(),
                    row.naiveDiff(),
                    row.modelText(),
                    row.modelDiff());
        }
        out.println("  (" + TheoryTable.DIFF_NOTE + (model ? "; " + TheoryTable.SCHEDULE_NOTE : "") + ")");
        PredictionCheck.explain(report).forEach(out::println);
    }

    /** The predictions made before a run, printed before it starts. */
    public static void printForecast(PrintStream out, Prediction naive, Prediction model) {
        if (naive == null) {
            return;
        }
        out.printf(
                L,
                "Predicted before the run: %s%s wall %.3f s, %,.0f req/s (naive N/W: %.3f s, %,.0f req/s)%n",
                model == null ? "no model (no CPU per request measured)" : "model (MVA)",
                model == null ? ";" : ":",
                model == null ? Double.NaN : model.wallNanos() / 1e9,
                model == null ? Double.NaN : model.throughputPerSecond(),
                naive.wallNanos() / 1e9,
                naive.throughputPerSecond());
        out.flush();
    }

    private static void printReconciliation(PrintStream out, Reconciliation c) {
        out.printf(
                L,
                "Reconciliation: planned %,d %s successful %,d + failed %,d + not sent %,d: %s%n",
                c.planned(),
                c.clientBalanced() ? "==" : "!=",
                c.successful(),
                c.failed(),
                c.notSent(),
                c.clientBalanced() ? "OK" : "MISMATCH");
        if (c.serverChecked()) {
            boolean ok = c.serverDelta() == c.successful();
            out.printf(
                    L,
                    "                server ridesStored %,d -> %,d: delta %,d %s successful %,d: %s%n",
                    c.storedBefore().getAsLong(),
                    c.storedAfter().getAsLong(),
                    c.serverDelta(),
                    ok ? "==" : "!=",
                    c.successful(),
                    ok ? "OK" : "MISMATCH");
        } else {
            out.println("                server ridesStored: not checked (" + c.serverNote() + ")");
        }
    }

    /** One line per run of a sweep, after the last run. */
    public static void printSweep(PrintStream out, List<RunReport> reports) {
        out.println();
        out.println("Sweep summary");
        String columns = "  %7s %10s %10s %7s %10s %14s %14s %8s %14s %8s%n";
        out.printf(
                L,
                columns,
                "threads",
                "planned",
                "successful",
                "failed",
                "wall",
                "throughput",
                "naive N/W",
                "diff",
                "model (MVA)",
                "diff");
        String caveat = "";
        for (RunReport rep : reports) {
            RunResult r = rep.result();
            TheoryTable t = TheoryTable.of(rep);
            TheoryTable.Row x = t == null ? null : t.wholeRunThroughput();
            if (t != null
                    && t.model() != null
                    && !t.model().network().scope().caveat().isEmpty()) {
                caveat = "; " + t.model().network().scope().caveat();
            }
            out.printf(
                    L,
                    columns,
                    r.numThreads(),
                    String.format(L, "%,d", r.requests().planned()),
                    String.format(L, "%,d", r.requests().successful()),
                    String.format(L, "%,d", r.requests().failed()),
                    String.format(L, "%.3f s", r.wallNanos() / 1e9),
                    TheoryTable.Unit.REQUESTS_PER_SECOND.format(r.throughputPerSecond()),
                    x == null ? "-" : x.naiveText(),
                    x == null ? "" : x.naiveDiff(),
                    x == null ? "-" : x.modelText(),
                    x == null ? "" : x.modelDiff());
        }
        out.println(
                "  (throughput = successful requests / wall seconds; naive = planned requests / wall time with every"
                        + " request W; model = MVA of a closed network: C cores, D under load, delay Z = W - D or under load"
                        + caveat
                        + "; "
                        + TheoryTable.DIFF_NOTE + ")");
        out.flush();
    }

    /** "HTTP 503: 3, timeout: 1". */
    public static String causes(Map<Integer, Long> byCause) {
        StringJoiner j = new StringJoiner(", ");
        byCause.forEach((code, n) -> j.add(AttemptCodes.describe(code) + ": " + String.format(L, "%,d", n)));
        return j.toString();
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
