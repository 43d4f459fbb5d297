package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.part2.cli.Subcommand;
import io.upic.liftride.client.part2.report.ConsoleReport;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.part2.report.ReportModel;
import io.upic.liftride.flags.Flag;
import io.upic.liftride.flags.Flags;
import io.upic.liftride.flags.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;

/**
 * {@code compare BASELINE CANDIDATE}: compares the candidate's runs with the baseline's (medians per side) against
 * a noise band; exit 0 no regression, 3 a regression, 2 bad input. One use per instance; not thread-safe.
 */
public final class CompareCommand {

    public static final String NAME = "compare";

    /** --max-regression BAND: the noise band, repeatable; see {@link NoiseBand}. */
    public static final Flag<String> MAX_REGRESSION = Flag.of(
                    null,
                    "max-regression",
                    "BAND",
                    NoiseBand.RULE,
                    null,
                    "how far a metric may move the wrong way before it is a regression: 5% (every metric),"
                            + " p99=10% or max=off (one metric; names as --threshold's), comma-separated or"
                            + " repeated; default " + NoiseBand.text(NoiseBand.DEFAULT.all()) + " on every metric",
                    text -> {
                        NoiseBand.parse(List.of(text)); // each value on its own, for a message naming it
                        return text;
                    })
            .withExplainsRejection(true);

    /** --markdown FILE: the tables for a pull-request comment. */
    public static final Flag<String> MARKDOWN = Flag.of(
            null,
            "markdown",
            "FILE",
            "a file path",
            null,
            "also write the comparison as GitHub-flavoured markdown (a pull-request comment)",
            text -> text);

    /** --html FILE: accepted for scripts that pass it; compare writes no HTML page. */
    public static final Flag<String> HTML = Flag.of(
            null,
            "html",
            "FILE",
            "a file path",
            null,
            "accepted and ignored: compare writes no HTML page (its tables are on the console and in --markdown)",
            text -> text);

    /** --allow-different-plans: compare runs of unlike plans. */
    public static final Flag<Boolean> ALLOW_DIFFERENT_PLANS = Flag.toggle(
            null,
            "allow-different-plans",
            "compare even when the plans differ (-t, -s, -l, -m, --plan, --transport, --rate, --mix, --ramp,"
                    + " --shard, warm-up); the output names the differences");

    private static final List<Flag<?>> FLAGS =
            List.of(MAX_REGRESSION, MARKDOWN, HTML, ALLOW_DIFFERENT_PLANS, Flags.HELP);

    private final PrintStream out;
    private final PrintStream err;
    private final Path workingDir;

    public CompareCommand(PrintStream out, PrintStream err, Path workingDir) {
        this.out = out;
        this.err = err;
        this.workingDir = workingDir;
    }

    /** What the command line asks; {@code null} from {@link #parse} when it asks for the help. */
    record Request(
            List<Path> baseline,
            List<Path> candidate,
            NoiseBand band,
            Path markdown,
            Path html,
            boolean allowDifferentPlans) {}

    /** The usage, headed by {@code command} (e.g. {@code java -jar client-part2.jar}). */
    public static String usage(String command) {
        return Flags.usage(
                command + " " + NAME + " BASELINE CANDIDATE [--max-regression BAND]... [--markdown FILE]"
                        + " [--html FILE] [--allow-different-plans]",
                null,
                FLAGS,
                "BASELINE, CANDIDATE: a run folder (out/t64), a summary.json or a merge output; several runs of one"
                        + " plan separated by commas (a,b,c): their median is compared and their range shown. Only"
                        + " the whole run's numbers decide. Exit codes: 0 no regression past the band, 3 a"
                        + " regression, 2 bad input (a flag, a file, unlike plans).");
    }

    /** Runs the comparison of {@code args} (the words after {@code compare}); returns the exit code. */
    public int run(String[] args, String command) {
        return Subcommand.run(args, this::parse, usage(command), out, err, this::compare);
    }

    private int compare(Request request) {
        ReportModel.Comparison model;
        try {
            model = RunComparison.of(
                            RunComparison.Side.of("baseline", read(request.baseline())),
                            RunComparison.Side.of("candidate", read(request.candidate())),
                            request.band(),
                            request.allowDifferentPlans())
                    .model();
        } catch (CompareInputException e) {
            err.println("compare: " + e.getMessage());
            err.flush();
            return UsageException.EXIT_CODE;
        }
        ConsoleReport.print(out, model);
        if (request.html() != null) {
            err.println("compare: --html ignored: compare writes no HTML page; its tables are in --markdown");
        }
        return write(request, model);
    }

    /** Writes --markdown; returns the comparison's exit code, or 2 when the file cannot be written. */
    private int write(Request request, ReportModel.Comparison c) {
        Path file = request.markdown();
        if (file != null) {
            try {
                Files.createDirectories(file.toAbsolutePath().getParent());
                Files.writeString(file, MarkdownReport.render(c), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                err.println("compare: cannot write " + file + " (" + e + ")");
                err.flush();
                return UsageException.EXIT_CODE;
            }
            out.println("Markdown: " + file);
        }
        out.flush();
        return c.exitCode();
    }

    private static List<RunRecord> read(List<Path> inputs) throws CompareInputException {
        List<RunRecord> runs = new ArrayList<>();
        for (Path p : inputs) {
            runs.addAll(RunRecord.read(p));
        }
        return runs;
    }

    Request parse(String[] args) throws UsageException {
        CommandLine cl = Flags.parse(args, FLAGS);
        if (Flags.HELP.valueIn(cl)) {
            return null;
        }
        List<String> positional = cl.getArgList();
        if (positional.size() != 2) {
            throw new UsageException(NAME + " needs BASELINE and CANDIDATE (a run folder, a summary.json or a merge"
                    + " output each; several separated by commas), got " + positional.size() + " argument"
                    + (positional.size() == 1 ? "" : "s") + (positional.isEmpty() ? "" : ": " + positional));
        }
        NoiseBand band;
        try {
            band = NoiseBand.parse(MAX_REGRESSION.valuesIn(cl));
        } catch (IllegalArgumentException e) { // each value is valid alone: a metric given twice across them
            throw new UsageException(MAX_REGRESSION.displayName() + ": " + e.getMessage());
        }
        return new Request(
                paths(positional.get(0), "BASELINE"),
                paths(positional.get(1), "CANDIDATE"),
                band,
                file(cl, MARKDOWN),
                file(cl, HTML),
                ALLOW_DIFFERENT_PLANS.valueIn(cl));
    }

    private List<Path> paths(String list, String what) throws UsageException {
        List<Path> paths = new ArrayList<>();
        for (String part : list.split(",", -1)) {
            if (part.isBlank()) {
                throw new UsageException(what + " has an empty entry in its comma-separated list: " + list);
            }
            paths.add(Subcommand.path(workingDir, part, what));
        }
        return paths;
    }

    private Path file(CommandLine cl, Flag<String> flag) throws UsageException {
        String text = flag.valueIn(cl);
        if (text == null) {
            return null;
        }
        if (text.isBlank()) {
            throw flag.missingValue();
        }
        return Subcommand.path(workingDir, text, flag.displayName());
    }
}
