package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.report.BriefSummary;
import io.upic.liftride.client.report.RunTables;
import io.upic.liftride.client.report.Table;
import io.upic.liftride.client.report.TheoryTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link ReportModel} as {@code report.md}, with links relative to the report so the folder can be
 * moved. Only formats: every number comes from the model ({@link ReportTables} formats the tables). Stateless.
 */
public final class MarkdownReport {

    public static final String FILE = "report.md";
    private static final Locale L = Locale.US;

    private MarkdownReport() {}

    /** Writes the report of {@code model} into {@code dir}; returns its path. */
    public static Path write(Path dir, ReportModel model) throws IOException {
        Path file = dir.resolve(FILE);
        Path tmp = dir.resolve(FILE + ".tmp");
        Files.writeString(tmp, render(dir, model), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    static String render(Path dir, ReportModel model) {
        StringBuilder b = new StringBuilder(16_384);
        ReportModel.Header h = model.header();
        b.append("# ").append(h.title()).append("\n\n");
        b.append("Command: `").append(h.command()).append("`  \n");
        b.append("Generated: ").append(h.generatedAt()).append("  \n");
        facts(b, h.facts());
        for (String p : h.intro()) {
            b.append(h.stopped() ? "\n**" + p + "**\n" : "\n" + p + "\n");
        }
        b.append('\n');
        if (model.sweep() != null) {
            sweep(b, dir, model.sweep());
        }
        for (ReportModel.Run run : model.runs()) {
            run(b, dir, run);
        }
        definitions(b);
        return b.toString();
    }

    /** Labelled lines, one a line. */
    private static void facts(StringBuilder b, List<ReportModel.Fact> facts) {
        facts.forEach(f -> b.append(f.label()).append(": ").append(f.value()).append("  \n"));
    }

    /** A comparison as a pull-request comment: the verdict first, what was compared, the tables, phases folded. */
    public static String render(ReportModel.Comparison c) {
        StringBuilder b = new StringBuilder("### ").append(c.title()).append("\n\n");
        b.append(c.regression() ? "**" + c.verdict() + "**" : ReportModel.Comparison.NO_REGRESSION)
                .append("\n\n");
        facts(b, c.facts());
        b.append('\n');
        table(b, c.tables().get(0));
        List<Table> phases = c.tables().subList(1, c.tables().size());
        if (!phases.isEmpty()) {
            b.append("\n<details><summary>Per phase (not gated)</summary>\n\n");
            for (Table t : phases) {
                table(b, t);
                b.append('\n');
            }
            b.append("</details>\n");
        }
        return b.toString();
    }

    private static void sweep(StringBuilder b, Path dir, ReportModel.Sweep sweep) {
        b.append("## Sweep\n\n");
        table(b, RunTables.sweep(sweep.rows()));
        b.append('\n');
        table(b, ReportTables.sweepLatency(sweep));
        b.append('\n').append(sweepNote(sweep.caveat())).append("\n\n");
        b.append(WHY_NAIVE_MISSES).append("\n\n");
        for (ChartFile f : sweep.charts()) {
            image(b, dir, f);
        }
    }

    /** What the sweep table's predictions are. */
    static String sweepNote(String caveat) {
        return "Throughput = successful requests / wall time. Both predictions follow the phase schedule (see"
                + " client-part1's `LittlesLaw`): *naive* lets every request take the single-thread W (X = N / W); the"
                + " *model* is a closed queueing network solved by MVA, a CPU of C cores with the demand D per request"
                + " measured by the runs (see `CpuDemand`) and a delay Z = W - D, so a thread takes n / X(n) per"
                + " request with n threads busy"
                + caveat
                + "; "
                + TheoryTable.DIFF_NOTE
                + ". In flight = measured throughput x measured mean latency.";
    }

    private static void run(StringBuilder b, Path dir, ReportModel.Run run) {
        b.append("## ").append(run.heading()).append("\n\n");
        for (String w : run.warnings()) {
            b.append("**").append(w).append("**\n\n");
        }
        files(b, dir, run.files());
        if (run.shards() != null) {
            table(b, ReportTables.shards(run.shards()));
            b.append('\n').append(overlapText(run.shards())).append("\n\n");
        } else {
            table(b, RunTables.account(run.summary()));
            b.append('\n');
        }
        if (!run.summary().failuresByCause().isEmpty()) {
            b.append("Failed requests by cause: ")
                    .append(BriefSummary.causes(run.summary().failuresByCause()))
                    .append("\n\n");
        }
        checks(b, run);
        subheading(b, run, "Latency (ms)");
        table(b, ReportTables.latency(run.summary()));
        b.append('\n');
        Table open = OpenModelReport.table(run);
        if (open != null) {
            subheading(b, run, OpenModelReport.heading(run));
            table(b, open);
            b.append('\n');
            OpenModelReport.shortfalls(run)
                    .forEach(line -> b.append("**").append(line).append("**\n\n"));
            b.append(OpenModelReport.NOTE).append("\n\n");
        }
        Table operations = ReportTables.operations(run);
        if (operations != null) {
            subheading(b, run, "Operations (--mix)");
            table(b, operations);
            b.append('\n').append(OPERATIONS_NOTE).append("\n\n");
        }
        subheading(b, run, "Phases and Little's law");
        table(b, RunTables.phases(run.summary()));
        b.append('\n');
        theory(b, run.theory());
        if (!run.charts().isEmpty()) {
            subheading(b, run, "Charts");
            run.charts().forEach(f -> image(b, dir, f));
        }
        if (run.generated() != null) {
            b.append(run.generated()).append("\n\n");
        }
    }

    /** A run's section heading, named after its folder ({@code t64}) so that a sweep repeats no heading. */
    private static void subheading(StringBuilder b, ReportModel.Run run, String text) {
        b.append("### ").append(run.name()).append(": ").append(text).append("\n\n");
    }

    /** A pipe table; "|" inside a cell is escaped. */
    static void table(StringBuilder b, Table t) {
        b.append("| ").append(String.join(" | ", t.header())).append(" |\n|");
        t.right().forEach(r -> b.append(r ? "---:|" : "---|"));
        b.append('\n');
        for (List<String> row : t.rows()) {
            b.append('|');
            row.forEach(c -> b.append(c.isEmpty() ? " |" : " " + c.replace("|", "\\|") + " |"));
            b.append('\n');
        }
    }

    private static void files(StringBuilder b, Path dir, List<ReportModel.FileRef> files) {
        if (files.isEmpty()) {
            return;
        }
        b.append("Files: ");
        for (int i = 0; i < files.size(); i++) {
            ReportModel.FileRef f = files.get(i);
            b.append(i == 0 ? "" : ", ");
            if (f.file() == null) {
                b.append(f.name());
            } else {
                b.append('[')
                        .append(f.file().getFileName())
                        .append("](")
                        .append(link(dir, f.file()))
                        .append(')');
            }
            b.append(f.note().isEmpty() ? "" : " " + f.note());
        }
        b.append("\n\n");
    }

    /** The overlap of the shards' windows and the rate over it, in one paragraph. */
    public static String overlapText(ReportModel.Shards sh) {
        if (!sh.overlap()) {
            return "The shards never ran together (one ended before the last one started): there is no combined"
                    + " rate; the total's throughput spans the gaps between them and is no load any server saw."
                    + " Compare the shards' own rates.";
        }
        return String.format(
                L,
                "All shards ran together from %s to %s UTC (%.3f s of the %.3f s from the first start to the last"
                        + " end): %,d requests completed in that overlap, %,.1f req/s, the rate the server saw from"
                        + " all shards at once. The total's throughput divides by the whole span instead, and a"
                        + " shard's by its own window.",
                ReportTables.TIME.format(Instant.ofEpochMilli(sh.overlapFromEpochMillis())),
                ReportTables.TIME.format(Instant.ofEpochMilli(sh.overlapToEpochMillis())),
                sh.overlapSeconds(),
                (sh.total().endEpochMillis() - sh.total().startEpochMillis()) / 1e3,
                sh.overlapSuccessful(),
                sh.overlapThroughput());
    }

    private static void checks(StringBuilder b, ReportModel.Run run) {
        b.append("Checks: ").append(checksText(run.checks())).append(".\n\n");
        for (String n : run.notes()) {
            b.append(n).append("\n\n");
        }
        for (String p : run.problems()) {
            b.append("- ").append(p).append('\n');
        }
    }

    /** The checks in one line: "what: OK; what: MISMATCH; what was not checked". */
    static String checksText(List<ReportModel.Check> checks) {
        StringBuilder b = new StringBuilder();
        for (ReportModel.Check c : checks) {
            b.append(b.length() == 0 ? "" : "; ").append(c.text());
            if (c.ok() != null) {
                b.append(": ").append(c.ok() ? "OK" : "MISMATCH");
            }
        }
        return b.toString();
    }

    private static void theory(StringBuilder b, TheoryTable t) {
        if (t == null) {
            b.append(NO_THEORY).append("\n\n");
            return;
        }
        b.append(t.heading()).append(":\n\n");
        t.models().forEach(line -> b.append("- ").append(line).append('\n'));
        b.append('\n');
        table(b, RunTables.theory(t));
        b.append("\n(").append(THEORY_NOTE).append("\n\n");
    }

    /** Why a run has no prediction. */
    static final String NO_THEORY = "No Little's-law prediction: the baseline was skipped or had no successful"
            + " request (a merge has none: its shards measured their own); the phase table above holds Little's law"
            + " with measured numbers.";

    /** What the theory table's columns mean and why the naive prediction misses. */
    /** What the operations table counts. */
    static final String OPERATIONS_NOTE = "A request succeeds with its operation's status: 201 for writeNewLiftRide,"
            + " 200 for a GET, 404 for a GET that --mix-unknown sent to a resort no run writes. Latency: every attempt"
            + " of the operation, from its actual send. The server's stored delta is checked against the successful"
            + " writeNewLiftRide requests.";

    static final String THEORY_NOTE = TheoryTable.DIFF_NOTE + "; " + TheoryTable.SCHEDULE_NOTE
            + ".) If measured in-flight is close to the thread count, the threads spent their time"
            + " waiting on responses and Little's law holds with the *measured* latency; the gap to"
            + " the naive prediction is then the growth of latency between the single-thread baseline"
            + " and the loaded run, not a client bug. " + MarkdownReport.WHY_NAIVE_MISSES;

    /** Why N / W misses here, in one sentence. */
    static final String WHY_NAIVE_MISSES = "The naive N / W misses by a wide margin on a 2-core machine that client"
            + " and server share: with every request costing D of CPU, the cores can finish at most C / D requests"
            + " per second, so beyond N* = C x W / D threads the extra threads only queue for the CPU and latency"
            + " grows as N x D / C instead of staying W.";

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

    /** The definitions behind the numbers, one Markdown bullet each. */
    static List<String> definitions() {
        return List.of(
                "**Latency**: `System.nanoTime()` from just before the request is sent to after the response is"
                        + " read, per HTTP attempt (a retry is a new attempt). *first* = first attempts only; *all* ="
                        + " every attempt including retries.",
                "**Percentiles**: HdrHistogram (values in microseconds, " + LatencyHistograms.SIGNIFICANT_DIGITS
                        + " significant digits) `getValueAtPercentile`: the nearest-rank value (rank ceil(p/100 x"
                        + " count)), reported as the top of its histogram bucket, so at most 0.1% above the exact"
                        + " value (exact below 2.048 ms). Mean, min and max are exact.",
                "**Throughput**: successful requests / wall seconds (per phase: / the phase's own duration; phases"
                        + " overlap; a merge: see the overlap of its shards).",
                "**Predictions** (client-part1's `LittlesLaw`, from the single-thread baseline measured after as"
                        + " many warm-up requests): *naive* X = N / W, every request takes the"
                        + " baseline's mean latency W; the *model* is mean value analysis of a closed network: N threads,"
                        + " a CPU of C cores (the available processors) with demand D, this process's CPU time per"
                        + " request measured by this invocation's earlier runs or stored from earlier invocations (client + server when the server is embedded, the"
                        + " client's only with -i), and a delay Z = W - D. Predicted wall times simulate the phase"
                        + " schedule with every request taking W (naive) or n / X(n), n the threads busy at that moment"
                        + " in all phases (model).",
                "**In flight (X x W)**: throughput x mean latency, Little's law with measured numbers; compare it"
                        + " with the thread count.",
                "**Charts over time**: attempts are bucketed by the time at which they completed (100 ms buckets,"
                        + " wider for long runs: at least 60 points from 6 s on, 1 s buckets past a minute); a"
                        + " bucket's percentiles use 2 significant digits.",
                "**Closed loop / coordinated omission**: each thread sends its next request only after the previous"
                        + " one returned, so when the server stalls the client also stops sending; the latencies are"
                        + " service times of the requests that were sent, not the delays a fixed-rate arrival stream"
                        + " would have seen. Percentiles under load are therefore optimistic; the wall time and"
                        + " throughput are not affected. With `--rate R` (the open model) every thread sends on a"
                        + " fixed schedule instead, and every attempt's latency is also measured from its request's"
                        + " intended send time (*from intended*), which removes this bias.",
                "**CSV columns**: `" + CsvRows.HEADER + "`; latency in ms with microsecond decimals, '.' decimal"
                        + " separator, codes are HTTP statuses or `timeout`, `connection_error`, `client_error`,"
                        + " `invalid_status`; rows are grouped by worker, not sorted by time; `send_delay_ms` (with `--rate` only, empty"
                        + " otherwise) is how long after its request's intended send the attempt started, so"
                        + " `send_delay_ms + latency_ms` is its latency from intended.");
    }

    private static void definitions(StringBuilder b) {
        b.append("## Definitions\n\n");
        definitions().forEach(d -> b.append("- ").append(d).append('\n'));
    }
}
