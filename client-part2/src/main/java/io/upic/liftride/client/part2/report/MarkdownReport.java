package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.engine.Baseline;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.report.Prediction;
import io.upic.liftride.client.report.PredictionCheck;
import io.upic.liftride.client.report.Reconciliation;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.client.report.SummaryPrinter;
import io.upic.liftride.client.report.TheoryTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;

/**
 * Writes {@code report.md} in the output folder: the sweep table and charts (when there is more than
 * one run), then per run its account, latency statistics per phase, Little's law predicted against
 * measured with the measured concurrency next to the thread count, its files and charts, and finally
 * the definitions behind the numbers. Links are relative to the report, so the folder can be moved
 * or committed as is. Stateless.
 */
public final class MarkdownReport {

    public static final String FILE = "report.md";
    private static final Locale L = Locale.US;

    private MarkdownReport() {}

    /**
     * The document's context.
     *
     * @param command     the command line as typed (for the reader to repeat it)
     * @param generatedAt when, as text
     * @param stopped     whether a stop (Ctrl-C, or a give-up on a silent server) cut the command short
     */
    public record Context(String command, String generatedAt, boolean stopped) {}

    /**
     * Writes the report for {@code runs} (and {@code sweepCharts}, possibly empty) into {@code dir}; returns its path.
     */
    public static Path write(Path dir, Context context, List<RunOutput> runs, List<ChartFile> sweepCharts)
            throws IOException {
        Path file = dir.resolve(FILE);
        Path tmp = dir.resolve(FILE + ".tmp");
        Files.writeString(tmp, render(dir, context, runs, sweepCharts), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    static String render(Path dir, Context ctx, List<RunOutput> runs, List<ChartFile> sweepCharts) {
        StringBuilder b = new StringBuilder(16_384);
        b.append("# LiftRide load test report\n\n");
        b.append("Command: `").append(ctx.command()).append("`  \n");
        b.append("Generated: ").append(ctx.generatedAt()).append("  \n");
        if (!runs.isEmpty()) {
            RunReport first = runs.get(0).report();
            b.append("Server: ")
                    .append(first.serverUrl())
                    .append(first.embeddedServer() ? " (embedded, started by the client)" : "")
                    .append("  \n");
            var c = first.config();
            b.append(String.format(
                    L,
                    "Plan: %s, -s %,d -l %d -m %d, transport %s%s  %n",
                    first.plan().planName(),
                    c.skiers(),
                    c.lifts(),
                    c.meanRuns(),
                    c.transport().cliName(),
                    c.seed() == null ? "" : ", seed " + c.seed()));
            Baseline.Result base = first.baseline();
            if (base != null) {
                // D, C and Z from the prediction itself, never re-derived here: the header and the tables say the same
                Prediction.Network n =
                        first.model() == null ? null : first.model().network();
                b.append(String.format(
                        L,
                        "Baseline (Little's law W): %,d requests from 1 thread%s, mean latency W = %.3f ms%s%s%n",
                        base.successful() + base.failed(),
                        base.warmupRequests() > 0
                                ? String.format(L, " after %,d warm-up requests", base.warmupRequests())
                                : "",
                        base.meanLatencyNanos() / 1e6,
                        n == null
                                ? ""
                                : String.format(
                                        L,
                                        "; calibration (%s): CPU per request under load D = %.1f us (%s), C = %d"
                                                + " cores, delay Z = %.3f ms",
                                        n.calibration(),
                                        n.cpuNanosPerRequest() / 1e3,
                                        n.scope().label(),
                                        n.cores(),
                                        n.delayNanos() / 1e6),
                        base.stopped() ? " (stopped early)" : ""));
            } else {
                b.append("Baseline: skipped (--baseline 0), so no Little's-law prediction\n");
            }
        }
        if (ctx.stopped()) {
            b.append(
                    "\n**Stopped early (Ctrl-C, or the client gave up on a server that stopped answering): the last run is a partial account; its PROBLEM lines say why.**\n");
        }
        b.append('\n');

        if (runs.size() > 1) {
            sweep(b, dir, runs, sweepCharts);
        }
        for (RunOutput o : runs) {
            run(b, dir, o);
        }
        definitions(b);
        return b.toString();
    }

    private static void sweep(StringBuilder b, Path dir, List<RunOutput> runs, List<ChartFile> charts) {
        b.append("## Sweep\n\n");
        b.append(
                "| threads | requests | failed | wall (s) | naive wall (s) | model wall (s) | throughput (req/s) "
                        + "| naive N/W | diff | model (MVA) | diff | mean (ms) | median (ms) | p99 (ms) | max (ms) | in flight (X x W) |\n");
        b.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        String caveat = "";
        for (RunOutput o : runs) {
            RunResult r = o.report().result();
            TheoryTable t = TheoryTable.of(o.report());
            TheoryTable.Row x = t == null ? null : t.wholeRunThroughput();
            Prediction bp = t == null ? null : t.model();
            if (bp != null && !bp.network().scope().caveat().isEmpty()) {
                caveat = " (here " + bp.network().scope().caveat() + ")";
            }
            ScopeStats s = o.metrics().run();
            b.append(String.format(
                    L,
                    "| %d | %,d | %,d | %.3f | %s | %s | %,.0f | %s | %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %.1f |%n",
                    r.numThreads(),
                    r.requests().planned(),
                    r.requests().failed(),
                    r.wallNanos() / 1e9,
                    t == null ? "-" : String.format(L, "%.3f", t.naive().wallNanos() / 1e9),
                    bp == null ? "-" : String.format(L, "%.3f", bp.wallNanos() / 1e9),
                    r.throughputPerSecond(),
                    x == null ? "-" : x.naiveText(),
                    x == null ? "-" : x.naiveDiff(),
                    x == null ? "-" : x.modelText(),
                    x == null ? "-" : x.modelDiff(),
                    s.all().meanMillis(),
                    s.all().p50Millis(),
                    s.all().p99Millis(),
                    s.all().maxMillis(),
                    s.measuredConcurrency()));
        }
        b.append(
                "\nThroughput = successful requests / wall time. Both predictions follow the phase schedule (see client-part1's "
                        + "`LittlesLaw`): *naive* lets every request take the single-thread W (X = N / W); the *model* is a closed "
                        + "queueing network solved by MVA, a CPU of C cores with the demand D per request measured under load by "
                        + "the calibration and a delay Z = W - D, so a thread takes n / X(n) per request with n threads busy"
                        + caveat
                        + "; "
                        + TheoryTable.DIFF_NOTE
                        + ". In flight = measured throughput x measured mean latency.\n\n");
        b.append(WHY_NAIVE_MISSES).append("\n\n");
        for (ChartFile f : charts) {
            image(b, dir, f);
        }
    }

    private static void run(StringBuilder b, Path dir, RunOutput o) {
        RunReport rep = o.report();
        RunResult r = rep.result();
        b.append(
                String.format(L, "## Run: %d threads%s%n%n", r.numThreads(), r.stopped() ? " (STOPPED, partial)" : ""));
        b.append(String.format(
                L,
                "Files: [%s](%s) (%,d rows), [%s](%s)%n%n",
                o.csv().file().getFileName(),
                link(dir, o.csv().file()),
                o.csv().rowsWritten(),
                o.hlog() == null ? "histogram log missing" : o.hlog().getFileName(),
                o.hlog() == null ? "" : link(dir, o.hlog())));
        account(b, r);
        checks(b, o);
        latency(b, o);
        OpenModelReport.appendMarkdown(b, o);
        phases(b, o);
        theory(b, TheoryTable.of(rep));
        // a miss over 15% says which input moved, as the console does
        PredictionCheck.explain(rep).forEach(line -> b.append(line.strip()).append("  \n"));
        b.append(PredictionCheck.explain(rep).isEmpty() ? "" : "\n");
        b.append("### Charts\n\n");
        for (ChartFile f : o.charts()) {
            image(b, dir, f);
        }
        b.append(String.format(
                L, "Statistics and charts generated in %.3f s after the run.%n%n", o.reportNanos() / 1e9));
    }

    private static void account(StringBuilder b, RunResult r) {
        b.append("| planned | successful | failed | not sent | attempts | retries | wall (s) | throughput (req/s) |\n");
        b.append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        b.append(String.format(
                L,
                "| %,d | %,d | %,d | %,d | %,d | %,d | %.3f | %,.1f |%n%n",
                r.requests().planned(),
                r.requests().successful(),
                r.requests().failed(),
                r.requests().notSent(),
                r.requests().attempts(),
                r.requests().retries(),
                r.wallNanos() / 1e9,
                r.throughputPerSecond()));
        if (!r.failuresByCause().isEmpty()) {
            b.append("Failed requests by cause: ")
                    .append(SummaryPrinter.causes(r.failuresByCause()))
                    .append("\n\n");
        }
    }

    private static void checks(StringBuilder b, RunOutput o) {
        Reconciliation c = o.report().reconciliation();
        b.append(String.format(
                L,
                "Checks: planned %,d = successful + failed + not sent: %s; ",
                c.planned(),
                c.clientBalanced() ? "OK" : "MISMATCH"));
        if (c.serverChecked()) {
            b.append(String.format(
                    L,
                    "server stored %,d rides during the run (successful %,d): %s; ",
                    c.serverDelta(),
                    c.successful(),
                    c.serverDelta() == c.successful() ? "OK" : "MISMATCH"));
        } else {
            b.append("server count not checked (").append(c.serverNote()).append("); ");
        }
        b.append(String.format(
                L,
                "CSV rows %,d = attempts %,d: %s; histogram values %,d: %s.%n%n",
                o.csv().rowsWritten(),
                o.attempts(),
                o.rowsMatch() ? "OK" : "MISMATCH",
                o.metrics().recordedAttempts(),
                o.histogramsMatch() ? "OK" : "MISMATCH"));
        if (o.csv().cpuNanos() >= 0 && o.csv().rowsWritten() > 0) {
            b.append(String.format(
                    L,
                    "Instrumentation cost beside the workers: the CSV writer thread used %.3f s CPU (%.0f ns per row).%n%n",
                    o.csv().cpuNanos() / 1e9,
                    o.csv().cpuNanosPerRow()));
        }
        for (String p : o.report().result().problems()) {
            b.append("- PROBLEM: ").append(p.lines().findFirst().orElse(p)).append('\n');
        }
        for (String p : o.problems()) {
            b.append("- PROBLEM (instrumentation): ").append(p).append('\n');
        }
    }

    private static void latency(StringBuilder b, RunOutput o) {
        b.append("### Latency (ms)\n\n");
        b.append("| scope | attempts | count | mean | median | p90 | p95 | p99 | p99.9 | min | max |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        latencyRows(b, o.metrics().run());
        for (ScopeStats s : o.metrics().phases()) {
            latencyRows(b, s);
        }
        b.append('\n');
    }

    private static void phases(StringBuilder b, RunOutput o) {
        RunResult r = o.report().result();
        b.append("### Phases and Little's law\n\n");
        b.append(
                "| phase | threads | requests | successful | duration (s) | throughput (req/s) | mean latency (ms) | in flight (X x W) | in flight / threads |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int k = 0; k < r.phases().size(); k++) {
            PhaseResult p = r.phases().get(k);
            ScopeStats s = o.metrics().phases().get(k);
            if (!p.started() || p.threads() == 0) {
                b.append(String.format(
                        L,
                        "| %s | %d | %,d | - | %s | | | | |%n",
                        p.name(),
                        p.threads(),
                        p.requests().planned(),
                        p.started() ? "no threads on this shard" : "not started"));
                continue;
            }
            b.append(String.format(
                    L,
                    "| %s | %d | %,d | %,d | %.3f | %,.1f | %.3f | %.1f | %.0f%% |%n",
                    p.name(),
                    p.threads(),
                    p.requests().planned(),
                    p.requests().successful(),
                    p.durationNanos() / 1e9,
                    s.throughputPerSecond(),
                    s.all().meanMillis(),
                    s.measuredConcurrency(),
                    100 * s.measuredConcurrency() / p.threads()));
        }
        ScopeStats run = o.metrics().run();
        b.append(String.format(
                L,
                "| **whole run** | %d (-t) | %,d | %,d | %.3f | %,.1f | %.3f | %.1f | |%n%n",
                r.numThreads(),
                r.requests().planned(),
                r.requests().successful(),
                r.wallNanos() / 1e9,
                run.throughputPerSecond(),
                run.all().meanMillis(),
                run.measuredConcurrency()));
    }

    private static void theory(StringBuilder b, TheoryTable t) {
        if (t == null) {
            b.append("No Little's-law prediction: the baseline was skipped or had no successful request.\n\n");
        } else {
            b.append(t.heading()).append(":\n\n");
            t.models().forEach(line -> b.append("- ").append(line).append('\n'));
            b.append("\n| quantity | measured | naive N / W | diff | ")
                    .append(t.modelLabel())
                    .append(" | diff |\n|---|---:|---:|---:|---:|---:|\n");
            for (TheoryTable.Row row : t.rows()) {
                b.append(String.join(
                                " | ",
                                "| " + row.quantity(),
                                row.measuredText(),
                                row.naiveText(),
                                row.naiveDiff(),
                                row.modelText(),
                                row.modelDiff()))
                        .append(" |\n");
            }
            b.append("\n(")
                    .append(TheoryTable.DIFF_NOTE)
                    .append("; ")
                    .append(TheoryTable.SCHEDULE_NOTE)
                    .append(".) If measured in-flight is close to the thread count, the threads spent their time"
                            + " waiting on responses and Little's law holds with the *measured* latency; the gap to"
                            + " the naive prediction is then the growth of latency between the single-thread baseline"
                            + " and the loaded run, not a client bug. ")
                    .append(WHY_NAIVE_MISSES)
                    .append("\n\n");
        }
    }

    /** Why N / W misses here, in one sentence. */
    static final String WHY_NAIVE_MISSES =
            "The naive N / W misses by a wide margin on a 2-core machine that client and server "
                    + "share: with every request costing D of CPU, the cores can finish at most C / D requests per second, so beyond "
                    + "N* = C (D + Z) / D threads the extra threads only queue for the CPU; through a slow network (Z >> D) it holds.";

    private static void latencyRows(StringBuilder b, ScopeStats s) {
        if (!s.started()) {
            b.append("| ").append(s.name()).append(" | - | not started | | | | | | | | |\n");
            return;
        }
        latencyRow(b, s.isRun() ? "**whole run**" : s.name(), "all", s.all());
        latencyRow(b, s.isRun() ? "**whole run**" : s.name(), "first", s.first());
        if (s.fromIntended() != null) {
            latencyRow(b, s.isRun() ? "**whole run**" : s.name(), "from intended", s.fromIntended());
        }
    }

    private static void latencyRow(StringBuilder b, String scope, String attempts, LatencyStats l) {
        if (l.count() == 0) {
            b.append(String.format(L, "| %s | %s | 0 | | | | | | | | |%n", scope, attempts));
            return;
        }
        b.append(String.format(
                L,
                "| %s | %s | %,d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
                scope,
                attempts,
                l.count(),
                l.meanMillis(),
                l.p50Millis(),
                l.p90Millis(),
                l.p95Millis(),
                l.p99Millis(),
                l.p999Millis(),
                l.minMillis(),
                l.maxMillis()));
    }

    private static void image(StringBuilder b, Path dir, ChartFile f) {
        String link = link(dir, f.file());
        b.append("[![")
                .append(f.title())
                .append("](")
                .append(link)
                .append(")](")
                .append(link)
                .append(")\n\n");
    }

    /** {@code file} relative to {@code dir}, with forward slashes (Markdown links). */
    static String link(Path dir, Path file) {
        Path rel = dir.toAbsolutePath()
                .normalize()
                .relativize(file.toAbsolutePath().normalize());
        return rel.toString().replace('\\', '/');
    }

    private static void definitions(StringBuilder b) {
        b.append("## Definitions\n\n");
        b.append(
                "- **Latency**: `System.nanoTime()` from just before the request is sent to after the response is read, per HTTP "
                        + "attempt (a retry is a new attempt). *first* = first attempts only; *all* = every attempt including retries.\n");
        b.append("- **Percentiles**: HdrHistogram (values in microseconds, ")
                .append(LatencyHistograms.SIGNIFICANT_DIGITS)
                .append(
                        " significant digits) `getValueAtPercentile`: the nearest-rank value (rank ceil(p/100 x count)), reported as "
                                + "the top of its histogram bucket, so at most 0.1% above the exact value (exact below 2.048 ms). Mean, "
                                + "min and max are exact.\n");
        b.append(
                "- **Throughput**: successful requests / wall seconds (per phase: / the phase's own duration; phases overlap).\n");
        b.append(
                "- **Predictions** (client-part1's `LittlesLaw`, from the single-thread baseline measured after as many warm-up "
                        + "requests, and a load calibration): *naive* X = N / W, every request takes the baseline's mean latency W; the "
                        + "*model* is mean value analysis of a closed network: N threads, a CPU of C cores (the available processors) "
                        + "with demand D, this process's CPU time per request measured under load on a warm JVM (client + server when "
                        + "the server is embedded, the client's only with -i), and a delay Z = W - D. Predicted wall times simulate the "
                        + "phase schedule with every request taking W (naive) or n / X(n), n the threads busy at that moment in all "
                        + "phases (model).\n");
        b.append(
                "- **In flight (X x W)**: throughput x mean latency, Little's law with measured numbers; compare it with the "
                        + "thread count.\n");
        b.append(
                "- **Per-second charts**: attempts are bucketed by the second in which they completed; per-second percentiles use "
                        + "2 significant digits.\n");
        b.append(
                "- **Closed loop / coordinated omission**: each thread sends its next request only after the previous one "
                        + "returned, so when the server stalls the client also stops sending; the latencies are service times of the "
                        + "requests that were sent, not the delays a fixed-rate arrival stream would have seen. Percentiles under load "
                        + "are therefore optimistic; the wall time and throughput are not affected. With `--rate R` (the open "
                        + "model) every thread sends on a fixed schedule instead, and every attempt's latency is also measured from "
                        + "its request's intended send time (*from intended*), which removes this bias.\n");
        b.append("- **CSV columns**: `")
                .append(CsvRows.HEADER)
                .append(
                        "`; latency in ms with microsecond decimals, '.' decimal "
                                + "separator, codes are HTTP statuses or `timeout`, `connection_error`, `client_error`; rows are grouped by "
                                + "worker, not sorted by time; `send_delay_ms` (with `--rate` only, empty otherwise) is how long after its "
                                + "request's intended send the attempt started, so `send_delay_ms + latency_ms` is its latency from intended.\n");
    }
}
