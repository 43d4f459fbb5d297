package io.upic.liftride.client;

import io.upic.liftride.client.cli.ParsedArgs;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.prediction.CalibrationStore;
import io.upic.liftride.client.threshold.MetricCatalog;
import io.upic.liftride.client.threshold.ThresholdCheck;
import io.upic.liftride.flags.UsageException;
import java.io.PrintStream;
import java.util.Objects;

/**
 * Command-line entry of client-part1. {@link #run(String[])} does everything and returns the exit code
 * (tests call it); {@link #main} adds the Ctrl-C handling and {@code System.exit}.
 *
 * <p>Exit codes: see {@link io.upic.liftride.client.cli.ExitCodes} (0 ok, 1 failed, 2 bad flags, 3 a threshold
 * failed, 4 counts not checked, 5 {@code --max-duration} passed, 130 Ctrl-C after the partial account is printed).
 */
public final class Main {

    /** How the usage names the command. */
    public static final String COMMAND = "java -jar client-part1.jar";

    /** The console's last line without --summary-json: what to open next. */
    static final String NEXT = "Next: client-part2 takes the same flags and adds percentiles, charts and report.html;"
            + " --summary-json FILE writes JSON";

    private final PrintStream out;
    private final PrintStream err;
    private final LocalServer.Starter starter;
    private final boolean console;
    private final CtrlC ctrlC;
    private final CalibrationStore store;

    /** Real streams, the embedded Tomcat for runs without -i, progress when on a terminal. */
    public Main(PrintStream out, PrintStream err) {
        this(out, err, EmbeddedTarget::start, System.console() != null, CalibrationStore.inUserCache());
    }

    /** As a test runs it: no CPU per request stored or reused. */
    public Main(PrintStream out, PrintStream err, LocalServer.Starter starter, boolean console) {
        this(out, err, starter, console, CalibrationStore.NONE);
    }

    private Main(
            PrintStream out, PrintStream err, LocalServer.Starter starter, boolean console, CalibrationStore store) {
        this.store = store;
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
        this.starter = Objects.requireNonNull(starter, "starter");
        this.console = console;
        this.ctrlC = new CtrlC(err, "printing the partial account");
    }

    public static void main(String[] args) {
        Main main = new Main(System.out, System.err);
        main.ctrlC.runAndExit(() -> main.run(args));
    }

    /** Parses {@code args}, runs, prints, and returns the exit code; never calls {@code System.exit}. */
    public int run(String[] args) {
        ParsedArgs parsed;
        try {
            parsed = RunOptions.parse(args);
            String unmeasurable = parsed.helpRequested()
                    ? null
                    : MetricCatalog.clientPart1()
                            .unmeasurable(parsed.config().checks().thresholds());
            if (unmeasurable != null) {
                throw new UsageException(unmeasurable);
            }
        } catch (UsageException e) {
            err.println(e.line());
            err.flush();
            return UsageException.EXIT_CODE;
        }
        if (parsed.helpRequested()) {
            out.print(RunOptions.usage(COMMAND));
            out.flush();
            return 0;
        }
        boolean verbose = parsed.config().output().verbose();
        int code = new Console(out, err, console, verbose)
                .run(parsed.config(), parsed.threadCounts(), starter, store, ctrlC);
        boolean finished = code == 0 || code == ThresholdCheck.EXIT_CODE;
        if (finished && parsed.config().output().summaryJson() == null && !verbose) {
            out.println(NEXT);
            out.flush();
        }
        return code;
    }
}
