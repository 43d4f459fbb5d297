package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.part2.chart.RunCharts;
import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.cli.Part2Options;
import io.upic.liftride.client.part2.cli.Subcommand;
import io.upic.liftride.client.part2.compare.CompareInputException;
import io.upic.liftride.client.part2.compare.RunRecord;
import io.upic.liftride.client.part2.report.ConsoleReport;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.HtmlReport;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.part2.report.ReportModel;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdCheck;
import io.upic.liftride.flags.Flag;
import io.upic.liftride.flags.Flags;
import io.upic.liftride.flags.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.cli.CommandLine;

/**
 * {@code merge DIR... --out DIR}: joins the outputs of shards into one report; run folders of the same name are
 * the shards of one run. Exit codes as {@link #usage} gives them. One use per instance; not thread-safe.
 */
public final class MergeCommand {

    public static final String NAME = "merge";

    private final PrintStream out;
    private final PrintStream err;
    private final Path workingDir;

    public MergeCommand(PrintStream out, PrintStream err, Path workingDir) {
        this.out = out;
        this.err = err;
        this.workingDir = workingDir;
    }

    /** --out DIR: the folder for the merged report (required); client-part2's --out with its own help. */
    public static final Flag<String> OUT = Part2Options.OUT.withHelp(
            "folder for the merged report.md, report.html, charts, latency.hlog and summary.json (required)");

    /** --allow-missing: merge a partial set of shards. */
    public static final Flag<Boolean> ALLOW_MISSING = Flag.toggle(
            null, "allow-missing", "merge even when some of the N shards are not given (the report says so)");

    /** --threshold EXPR: the run's flag, checked on the merged histograms and counts. */
    public static final Flag<Threshold> THRESHOLD = RunOptions.THRESHOLD.withHelp(
            "pass/fail condition checked on the merged numbers, repeatable, as a run's --threshold (p99<50ms,"
                    + " failed==0, throughput>5000); any FAIL exits " + ThresholdCheck.EXIT_CODE);

    private static final List<Flag<?>> FLAGS = List.of(OUT, ALLOW_MISSING, THRESHOLD, Flags.HELP);

    /** What the command line asks to merge: {@code null} from {@link #parse} when it asks for the help. */
    private record Request(List<Path> inputs, Path outDir, boolean allowMissing, List<Threshold> thresholds) {}

    /** The usage, headed by {@code command} (e.g. {@code java -jar client-part2.jar}). */
    public static String usage(String command) {
        return Flags.usage(
                command + " " + NAME + " DIR... --out DIR [--allow-missing] [--threshold EXPR]...",
                null,
                FLAGS,
                "DIR: a client-part2 output folder of one shard (or one of its run folders t64/ ...); give every"
                        + " shard's; run folders of the same name are merged. Exit codes: 0 merged, every request"
                        + " succeeded and the server's count agrees (or was not read), 1 merged with failed or unsent"
                        + " requests, missing shards or a server count that disagrees (or a file not written), 2 bad"
                        + " arguments or outputs of different plans, 3 a --threshold failed or a shard aborted.");
    }

    /** Runs the merge of {@code args} (the words after {@code merge}); returns the exit code. */
    public int run(String[] args, String command) {
        return Subcommand.run(args, this::parse, usage(command), out, err, request -> {
            try {
                return write(request.outDir(), merge(request), command + " " + NAME + " " + String.join(" ", args));
            } catch (MergeRefusedException e) {
                err.println(e.getMessage());
                err.flush();
                return UsageException.EXIT_CODE;
            }
        });
    }

    private Request parse(String[] args) throws UsageException {
        CommandLine cl = Flags.parse(args, FLAGS);
        if (Flags.HELP.valueIn(cl)) {
            return null;
        }
        List<Path> inputs = new ArrayList<>();
        for (String a : cl.getArgList()) {
            inputs.add(Subcommand.path(workingDir, a, "DIR"));
        }
        if (inputs.isEmpty()) {
            throw new UsageException("merge needs at least one shard output folder");
        }
        String out = OUT.valueIn(cl);
        if (out == null) {
            throw new UsageException("--out is required (a folder that can be created)");
        }
        if (out.isBlank()) {
            throw OUT.missingValue();
        }
        return new Request(
                inputs, Subcommand.path(workingDir, out, "--out"), ALLOW_MISSING.valueIn(cl), THRESHOLD.valuesIn(cl));
    }

    private static List<MergedRun> merge(Request request) throws MergeRefusedException {
        List<MergedRun> merged = new ArrayList<>();
        for (Map.Entry<String, List<Path>> g : groups(request.inputs()).entrySet()) {
            List<RunRecord> shards = new ArrayList<>();
            for (Path dir : g.getValue()) {
                try {
                    RunRecord shard = RunRecord.load(dir);
                    if (ShardMerge.CLIENT.equals(shard.summary().client())) {
                        throw new IOException(dir + " is a merge's output, not a shard's run folder");
                    }
                    shards.add(shard);
                } catch (IOException | CompareInputException e) {
                    throw new MergeRefusedException("cannot merge " + g.getKey() + ": " + e.getMessage());
                }
            }
            merged.add(ShardMerge.merge(g.getKey(), shards, request.allowMissing(), request.thresholds()));
        }
        return merged;
    }

    /** Writes the merged runs and the report into {@code outDir}; returns the exit code. */
    private int write(Path outDir, List<MergedRun> merged, String commandLine) {
        try {
            Files.createDirectories(outDir);
            List<List<ChartFile>> charts = new ArrayList<>();
            for (MergedRun m : merged) {
                charts.add(writeRun(outDir, m));
            }
            String now = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z", Locale.ROOT));
            ReportModel model = MergeSections.of(outDir, commandLine, now, merged, charts);
            Path report = MarkdownReport.write(outDir, model);
            Path html = HtmlReport.write(outDir, model);
            int exit = ExitCodes.OK;
            for (int i = 0; i < merged.size(); i++) {
                MergedRun m = merged.get(i);
                RunSummary r = m.summary();
                out.printf(
                        Locale.US,
                        "Merged %s: %d of %d shards, planned %,d, successful %,d, failed %,d, not sent %,d, wall %.2f s,"
                                + " %,.0f req/s over the whole span%s%s%n",
                        m.name(),
                        m.shards().size(),
                        m.count(),
                        r.planned(),
                        r.successful(),
                        r.failed(),
                        r.notSent(),
                        r.wallSeconds(),
                        r.throughput(),
                        overlapNote(model.runs().get(i).shards()),
                        m.missing().isEmpty() ? "" : " (PARTIAL: shards " + m.missing() + " missing)");
                RunSummary.Server server = r.server();
                if (Boolean.FALSE.equals(server.reconciled())) {
                    out.printf(
                            Locale.US,
                            "  checked    server stored %,d rides (lowest ridesStored before a shard %,d, highest after"
                                    + " %,d) but the shards made %,d successful writes: MISMATCH%n",
                            server.delta(),
                            server.ridesStoredBefore(),
                            server.ridesStoredAfter(),
                            m.result().successfulWrites());
                }
                ConsoleReport.printRatesAndOperations(out, model.runs().get(i));
                RunSummary.Aborted abort = r.abort();
                if (abort != null) {
                    out.println(abort.line());
                }
                m.thresholds().print(out, "Thresholds of " + m.name());
                exit = ExitCodes.worse(exit, m.exitCode());
            }
            out.println("Report: " + report);
            out.println("Report: " + html);
            out.flush();
            return exit;
        } catch (IOException | RuntimeException e) {
            err.println("merge failed writing " + outDir + ": " + e);
            err.flush();
            return 1;
        }
    }

    /** The rate while every shard ran, or that they never ran together. */
    private static String overlapNote(ReportModel.Shards sh) {
        if (!sh.overlap()) {
            return "; the shards never ran together: no combined rate";
        }
        return Double.isNaN(sh.overlapThroughput())
                ? String.format(Locale.US, "; all ran together for %.3f s", sh.overlapSeconds())
                : String.format(
                        Locale.US, ", %,.0f req/s while all ran (%.3f s)", sh.overlapThroughput(), sh.overlapSeconds());
    }

    private List<ChartFile> writeRun(Path outDir, MergedRun m) throws IOException {
        Path dir = Files.createDirectories(outDir.resolve(m.name()));
        HdrLog.write(dir.resolve(HdrLog.FILE), m.result(), m.metrics());
        HdrLog.writePerBucket(
                dir.resolve(HdrLog.PER_BUCKET_FILE),
                m.result().startEpochMillis(),
                m.seconds(),
                m.result().planName());
        SummaryJson.write(dir.resolve(SummaryJson.FILE), List.of(m.summary()));
        String label = String.format(
                Locale.US,
                "%d threads, %,d requests, %d shards%s",
                m.result().numThreads(),
                m.result().requests().planned(),
                m.shards().size(),
                m.missing().isEmpty() ? "" : " (partial)");
        return RunCharts.write(dir, label, m.result(), m.seconds(), m.metrics());
    }

    /** Run folders by name: each input is a run folder, or an output folder whose subfolders are run folders. */
    private static Map<String, List<Path>> groups(List<Path> inputs) throws MergeRefusedException {
        Map<String, List<Path>> groups = new TreeMap<>();
        for (Path in : inputs) {
            if (!Files.isDirectory(in)) {
                throw new MergeRefusedException("cannot merge: " + in + " is not a folder");
            }
            List<Path> summaries;
            try {
                summaries = RunRecord.summaries(in);
            } catch (CompareInputException e) {
                throw new MergeRefusedException("cannot merge: " + e.getMessage());
            }
            if (summaries.isEmpty()) {
                throw new MergeRefusedException("cannot merge: " + in + " holds no " + SummaryJson.FILE
                        + ", neither itself nor a run folder in it (is it a client-part2 output folder?)");
            }
            for (Path f : summaries) {
                groups.computeIfAbsent(name(f.getParent()), k -> new ArrayList<>())
                        .add(f.getParent());
            }
        }
        return groups;
    }

    private static String name(Path runDir) {
        Path f = runDir.toAbsolutePath().normalize().getFileName();
        return f == null ? "run" : f.toString();
    }
}
