package io.upic.liftride.client.part2;

import io.upic.liftride.client.CtrlC;
import io.upic.liftride.client.EmbeddedTarget;
import io.upic.liftride.client.LocalServer;
import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.cli.ParsedArgs;
import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.part2.chart.ChartStyle;
import io.upic.liftride.client.part2.cli.Part2Options;
import io.upic.liftride.client.part2.compare.CompareCommand;
import io.upic.liftride.client.part2.merge.MergeCommand;
import io.upic.liftride.client.prediction.CalibrationStore;
import io.upic.liftride.flags.UsageException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Command-line entry of client-part2: client-part1's {@link io.upic.liftride.client.Sweep} and console extended
 * by {@link Instrumentation} and {@code --out DIR}, plus {@code merge} ({@link MergeCommand}) and {@code compare}
 * ({@link CompareCommand}). Exit codes as client-part1's ({@link ExitCodes}), and 1 when the CSV or histograms do
 * not match the attempts or the CSV writer failed. Ctrl-C ({@link CtrlC}) still writes the partial run's outputs.
 */
public final class Main {

    public static final String COMMAND = "java -jar client-part2.jar";

    private final PrintStream out;
    private final PrintStream err;
    private final LocalServer.Starter starter;
    private final boolean console;
    private final Path workingDir;
    private final CtrlC ctrlC;
    private final CalibrationStore store;
    private volatile Instrumentation lastInstrumentation;

    public Main(PrintStream out, PrintStream err) {
        this(out, err, EmbeddedTarget::start, System.console() != null, Path.of(""), CalibrationStore.inUserCache());
    }

    /**
     * As a test runs it: no CPU per request stored or reused.
     *
     * @param workingDir where the default {@code data/runs/...} folder and a relative --out are resolved
     */
    public Main(PrintStream out, PrintStream err, LocalServer.Starter starter, boolean console, Path workingDir) {
        this(out, err, starter, console, workingDir, CalibrationStore.NONE);
    }

    private Main(
            PrintStream out,
            PrintStream err,
            LocalServer.Starter starter,
            boolean console,
            Path workingDir,
            CalibrationStore store) {
        this.store = store;
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
        this.starter = Objects.requireNonNull(starter, "starter");
        this.console = console;
        this.workingDir = Objects.requireNonNull(workingDir, "workingDir");
        this.ctrlC = new CtrlC(err, "writing the CSV rows so far, the partial account and its report");
    }

    public static void main(String[] args) {
        ChartStyle.enableHeadless(); // before anything touches AWT
        Main main = new Main(System.out, System.err);
        main.ctrlC.runAndExit(() -> main.run(args));
    }

    /**
     * Parses {@code args}, runs, prints, writes the files and returns the exit code; never calls {@code System.exit}.
     */
    public int run(String[] args) {
        ChartStyle.enableHeadless();
        if (args.length > 0 && args[0].equals(MergeCommand.NAME)) {
            return new MergeCommand(out, err, workingDir).run(Arrays.copyOfRange(args, 1, args.length), COMMAND);
        }
        if (args.length > 0 && args[0].equals(CompareCommand.NAME)) {
            return new CompareCommand(out, err, workingDir).run(Arrays.copyOfRange(args, 1, args.length), COMMAND);
        }
        ParsedArgs parsed;
        Path outDir;
        try {
            parsed = Part2Options.parse(args);
            if (parsed.helpRequested()) {
                out.print(Part2Options.usage(COMMAND));
                out.println("To merge the outputs of --shard runs: " + COMMAND + " " + MergeCommand.NAME
                        + " DIR... --out DIR (" + MergeCommand.NAME + " --help)");
                out.println("To compare a candidate's runs with a baseline's: " + COMMAND + " " + CompareCommand.NAME
                        + " BASELINE CANDIDATE (" + CompareCommand.NAME + " --help)");
                out.flush();
                return 0;
            }
            outDir = Part2Options.outputDir(parsed.commandLine(), workingDir, LocalDateTime.now());
        } catch (UsageException e) {
            err.println(e.line());
            err.flush();
            return UsageException.EXIT_CODE;
        }
        boolean verbose = parsed.config().output().verbose();
        if (verbose) {
            out.println("Output folder: " + outDir);
        }
        Instrumentation hooks = new Instrumentation(
                outDir,
                out,
                err,
                console,
                verbose,
                commandLine(args),
                parsed.threadCounts().size());
        lastInstrumentation = hooks;
        int code;
        try {
            code = hooks.run(resolved(parsed.config()), parsed.threadCounts(), starter, store, ctrlC);
        } catch (RuntimeException e) { // e.g. a run folder that cannot be created: say so, no stack trace dump
            err.println("client-part2 failed: " + e);
            err.flush();
            return 1;
        }
        if (!hooks.ok()) {
            for (String f : hooks.failures()) {
                err.println("instrumentation check failed: " + f);
            }
            err.flush();
            code = ExitCodes.worse(code, ExitCodes.FAILED);
        }
        return code;
    }

    /** The config with a relative --summary-json resolved where --out is, against the working directory. */
    private RunConfig resolved(RunConfig c) {
        Path json = c.output().summaryJson();
        return json == null ? c : c.withOutput(c.output().withSummaryJson(workingDir.resolve(json)));
    }

    /** Ctrl-C (or any JVM shutdown) during a run: stop it and wait until its partial account and files are written. */
    void onShutdown() {
        ctrlC.onShutdown();
    }

    /** The last run's instrumentation (tests). */
    Instrumentation instrumentation() {
        return lastInstrumentation;
    }

    static String commandLine(String[] args) {
        List<String> parts = List.of(args);
        return COMMAND
                + (parts.isEmpty()
                        ? ""
                        : " "
                                + parts.stream()
                                        .map(a -> a.isEmpty()
                                                        || a.chars()
                                                                .anyMatch(ch -> Character.isWhitespace(ch)
                                                                        || "'\"$`\\".indexOf(ch) >= 0)
                                                ? "'" + a.replace("'", "'\\''") + "'"
                                                : a)
                                        .collect(Collectors.joining(" ")));
    }
}
