package io.upic.liftride.client.report;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.cli.Workload;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuDemand;
import io.upic.liftride.client.prediction.LittlesLaw;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.prediction.WarmUp;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * The console's default account, each run in at most {@link #MAX_RUN_LINES} lines of at most {@link #WIDTH}
 * columns, numbers in {@link Locale#US}. Stateless and thread-safe; callers serialize output to one stream.
 */
public final class BriefSummary {

    /** The widest line this account prints, in columns. */
    public static final int WIDTH = 120;
    /** The most lines one run prints, its plan and client-part2's files line included, a --ramp's stages too. */
    public static final int MAX_RUN_LINES = 15;

    private static final Locale L = Locale.US;
    private static final String LABEL = "  %-10s ";

    private BriefSummary() {}

    /** Where the load goes and how, once before the baseline. */
    public static void printServer(PrintStream out, RunConfig c, String serverUrl, boolean embedded) {
        out.printf(
                L,
                "Server %s%s, transport %s%n",
                serverUrl,
                embedded ? " (embedded, started by this client)" : "",
                c.target().transport().cliName());
        if (c.checks().baselineRequests() > 0) {
            out.printf(
                    L,
                    "Measuring W: up to %,d + %,d requests from 1 thread (each half stops at %.1f s once 200 are"
                            + " sent)...%n",
                    c.checks().baselineRequests(),
                    c.checks().baselineRequests(),
                    Baseline.PART_LIMIT_NANOS / 1e9);
        }
        out.flush();
    }

    /** The warm-up's outcome in one line ({@code w} null: nothing measured). */
    public static void printWarmUp(PrintStream out, int threads, WarmUp.Result w) {
        if (w == null) {
            out.println("Warm-up: nothing measured (this process's CPU time is unknown, or a stop came first)");
            return;
        }
        out.printf(
                L,
                "Warm-up in %.1f s: %d slices of -t %d, %,d requests, D = %.1f us; %s%n",
                w.wallNanos() / 1e9,
                w.slices(),
                threads,
                w.attempts(),
                w.demandNanos() / 1e3,
                w.settled()
                        ? "the JIT compiler has settled"
                        : w.complete()
                                ? "the JIT compiler has not settled (a busy machine?)"
                                : "cut short at half the runs' requests: stored only after a longer run");
        out.flush();
    }

    /** The prediction's inputs in one line: W, and the first run's D with its source. */
    public static void printBaseline(
            PrintStream out, Baseline.Result b, CpuDemand demand, long requests, long elapsedNanos) {
        if (b == null) {
            return;
        }
        if (b.successful() == 0) {
            out.println("No prediction: the baseline had no successful request");
            return;
        }
        double d = demand == null ? Double.NaN : demand.nanosFor(requests);
        out.printf(
                L,
                "Baseline in %.1f s: W = %.3f ms latency (1 thread), %s%n",
                elapsedNanos / 1e9,
                b.meanLatencyNanos() / 1e6,
                d > 0
                        ? String.format(L, "D = %.1f us CPU per request (%s)", d / 1e3, demand.source())
                        : "no D (this process's CPU time is unknown: no model)");
        out.flush();
    }

    /** The plan in one line, before the run; a --ramp's stages counted, its text cut short to fit the width. */
    public static void printPlan(PrintStream out, Workload c, LoadPlan plan) {
        out.println();
        String line = String.format(
                L,
                "Run -t %d, plan %s: %,d requests, -s %,d -l %d -m %d, %s%s%s",
                plan.numThreads(),
                plan.planName(),
                plan.totalRequests(),
                plan.numSkiers(),
                c.lifts(),
                plan.numRuns(),
                c.ramp() != null
                        ? plan.phases().size() + " stages"
                        : "threads "
                                + plan.phases().stream()
                                        .map(p -> Integer.toString(p.threads()))
                                        .collect(Collectors.joining("/"))
                                + " ("
                                + plan.phases().stream().map(PlannedPhase::name).collect(Collectors.joining("/"))
                                + ")",
                c.shard().whole() ? "" : ", --shard " + c.shard(),
                c.rate() != null
                        ? ", --rate " + RunTables.number(c.rate())
                        : c.ramp() != null ? ", --ramp " + c.ramp().text() : "");
        out.println(line.length() <= WIDTH ? line : line.substring(0, WIDTH - 3) + "...");
        if (!c.shard().whole()) {
            out.println(ShardNotes.planLine(c.shard(), c.wholePlan(), plan));
        }
        out.flush();
    }

    /** The account of a finished run, judged ({@link RunVerdict#judge}): counts, latency, prediction, checks. */
    public static void printResult(PrintStream out, RunReport report) {
        RunSummary s = report.summary();
        if (s.stopped()) {
            out.printf(
                    L,
                    "  STOPPED before the end: partial account (done %,d = %,d successful + %,d failed; not sent %,d)%n",
                    s.successful() + s.failed(),
                    s.successful(),
                    s.failed(),
                    s.notSent());
        }
        out.printf(
                L,
                LABEL + "%,d successful, %,d failed%s, %,d retries; wall %.3f s, %,.1f req/s%n",
                "requests",
                s.successful(),
                s.failed(),
                s.notSent() > 0 ? String.format(L, ", %,d not sent", s.notSent()) : "",
                s.retries(),
                s.wallSeconds(),
                s.throughput());
        out.println(String.format(L, LABEL, "latency") + latency(s.latencyMs()));
        operations(s).forEach(out::println);
        if (s.ramp() == null) {
            rates(report.result()).forEach(line -> out.printf(L, LABEL + "%s%n", "open model", line));
        } else {
            List<String> ramp = RampStages.brief(s);
            out.printf(L, LABEL + "%s%n", "ramp", ramp.get(0));
            out.printf(L, LABEL + "%s%n", "stages", ramp.get(1));
        }
        if (!s.failuresByCause().isEmpty()) {
            out.println("  failures by cause: " + causes(s.failuresByCause()));
        }
        for (String problem : s.problems()) {
            out.println("  PROBLEM: " + problem);
        }
        out.println(String.format(L, LABEL, "predicted") + prediction(report));
        Prediction.Network n = report.model() == null ? null : report.model().network();
        if (n != null) {
            out.printf(
                    L,
                    LABEL + "D = %.1f us CPU per request (%s), Z = %.3f ms, C = %d cores%n",
                    "model",
                    n.cpuNanosPerRequest() / 1e3,
                    n.source(),
                    n.delayNanos() / 1e6,
                    n.cores());
        }
        Reconciliation c = report.reconciliation();
        out.println(String.format(L, LABEL, "checked") + reconciliation(c));
        if (!c.serverChecked()) {
            out.println("  server ridesStored: not checked (" + c.serverNote() + ")");
        }
        out.flush();
    }

    /** With --mix, one line per operation: its counts, throughput and latency; none without. */
    private static List<String> operations(RunSummary s) {
        if (s.operations() == null) {
            return List.of();
        }
        return s.operations().stream()
                .map(o -> String.format(
                        L,
                        "  op %-20s %,d successful%s, %,d failed; %,.1f req/s; %s",
                        o.operation(),
                        o.successful(),
                        o.notFound() > 0 ? String.format(L, " (%,d expected 404)", o.notFound()) : "",
                        o.failed(),
                        o.throughput(),
                        latency(o.latencyMs())))
                .toList();
    }

    /** Mean, p50, p99 and max, as far as the client measures them. */
    private static String latency(RunSummary.Latency l) {
        if (l == null || l.mean() == null) {
            return "-";
        }
        if (l.p50() == null) {
            return String.format(L, "mean %.3f ms (percentiles and max: client-part2)", l.mean());
        }
        return String.format(
                L, "mean %.3f ms, p50 %.3f ms, p99 %.3f ms, max %.3f ms", l.mean(), l.p50(), l.p99(), l.max());
    }

    /** The open model's peak phase, offered beside achieved; nothing in the closed model. */
    private static List<String> rates(RunResult r) {
        return r.phases().stream()
                .filter(p -> p.started() && p.offeredPerSecond() != null)
                .max((a, b) -> Integer.compare(a.threads(), b.threads()))
                .map(p -> List.of(peakRate(p)))
                .orElse(List.of());
    }

    private static String peakRate(PhaseResult p) {
        return String.format(
                L,
                "%s offered %,.1f req/s, achieved %,.1f; send lag mean %.3f ms, max %.3f ms",
                p.name(),
                p.offeredPerSecond(),
                p.achievedPerSecond(),
                p.scheduleLag().meanNanos() / 1e6,
                p.scheduleLag().maxNanos() / 1e6);
    }

    /** The wall time each prediction gave, with the measurement's difference from it. */
    private static String prediction(RunReport report) {
        Prediction naive = report.prediction();
        if (naive == null) {
            return "no prediction (--baseline 0, or a baseline without a successful request)";
        }
        double wall = report.result().wallNanos();
        String model = report.model() == null
                ? "no model (no CPU per request measured)"
                : String.format(
                        L,
                        "model %.3f s (%+.1f%%)",
                        report.model().wallNanos() / 1e9,
                        LittlesLaw.differencePercent(wall, report.model().wallNanos()));
        return String.format(
                L,
                "wall time: %s, naive N / W %.3f s (%+.1f%%); diff = measured / predicted - 1",
                model,
                naive.wallNanos() / 1e9,
                LittlesLaw.differencePercent(wall, naive.wallNanos()));
    }

    private static String reconciliation(Reconciliation c) {
        String client = String.format(
                L,
                "%,d planned %s %,d successful + %,d failed + %,d not sent: %s",
                c.planned(),
                c.clientBalanced() ? "==" : "!=",
                c.successful(),
                c.failed(),
                c.notSent(),
                c.clientBalanced() ? "OK" : "MISMATCH");
        if (!c.serverChecked()) {
            return client;
        }
        String ok = c.serverReconciled() ? "OK" : "MISMATCH";
        return c.writes() == c.successful()
                ? client + String.format(L, "; server stored %,d: %s", c.serverDelta(), ok)
                : client
                        + String.format(
                                L, "; server stored %,d of %,d successful POSTs: %s", c.serverDelta(), c.writes(), ok);
    }

    /** One line per run of a sweep: the measurement and both predictions of the wall time. */
    public static void printSweep(PrintStream out, List<RunReport> reports) {
        out.println();
        String columns = "  %7s %11s %7s %9s %13s %10s %10s %19s %19s%n";
        out.printf(
                L,
                columns,
                "threads",
                "successful",
                "failed",
                "wall",
                "throughput",
                "mean",
                "p99",
                "naive N / W",
                "model (MVA)");
        for (RunReport rep : reports) {
            RunSummary s = rep.summary();
            out.printf(
                    L,
                    columns,
                    s.threads(),
                    String.format(L, "%,d", s.successful()),
                    String.format(L, "%,d", s.failed()),
                    String.format(L, "%.3f s", s.wallSeconds()),
                    String.format(L, "%,.0f req/s", s.throughput()),
                    millis(s.latencyMs().mean()),
                    millis(s.latencyMs().p99()),
                    wall(s, rep.prediction()),
                    wall(s, rep.model()));
        }
        out.println("  (naive and model: the predicted wall time, and the measurement's difference from it)");
        out.flush();
    }

    /** "HTTP 503: 3, timeout: 1". */
    public static String causes(Map<Integer, Long> byCause) {
        StringJoiner j = new StringJoiner(", ");
        byCause.forEach((code, n) -> j.add(AttemptCodes.describe(code) + ": " + String.format(L, "%,d", n)));
        return j.toString();
    }

    private static String millis(Double v) {
        return v == null ? "-" : String.format(L, "%.3f ms", v);
    }

    private static String wall(RunSummary s, Prediction p) {
        return p == null
                ? "-"
                : String.format(
                        L,
                        "%9s %9s",
                        String.format(L, "%.3f s", p.wallNanos() / 1e9),
                        String.format(
                                L, "%+.1f%%", LittlesLaw.differencePercent(s.wallSeconds() * 1e9, p.wallNanos())));
    }
}
