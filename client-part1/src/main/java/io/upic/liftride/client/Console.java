package io.upic.liftride.client;

import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.cli.MaxDuration;
import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.cli.StartAt;
import io.upic.liftride.client.cli.Workload;
import io.upic.liftride.client.engine.ProgressListener;
import io.upic.liftride.client.live.LiveEndpoint;
import io.upic.liftride.client.live.LiveMetrics;
import io.upic.liftride.client.live.MetricsAddress;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CalibrationStore;
import io.upic.liftride.client.prediction.CpuDemand;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.prediction.WarmUp;
import io.upic.liftride.client.report.BriefSummary;
import io.upic.liftride.client.report.ProgressPrinter;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.client.report.RunVerdict;
import io.upic.liftride.client.report.VerboseSummary;
import io.upic.liftride.flags.UsageException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The console of one client invocation: runs its {@link Sweep} with the embedded server, --metrics-port,
 * --max-duration and Ctrl-C around it, prints the brief account ({@link BriefSummary}, with --verbose {@link
 * VerboseSummary}) and returns the exit code. {@link #run} is called once; {@link #stop} is thread-safe.
 */
public class Console implements RunHooks {

    private static final Locale L = Locale.US;
    private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    /** Summaries go here. */
    protected final PrintStream out;
    /** Errors and the progress line go here. */
    protected final PrintStream err;
    /** --verbose: the full account too. */
    protected final boolean verbose;
    /** What --verbose adds to the brief account, else nowhere. */
    protected final PrintStream detail;

    private final boolean terminal;
    /** The sweep {@link #run} runs, for {@link #stop} on another thread; null before. */
    private volatile Sweep sweep;

    /**
     * @param terminal whether stderr is a terminal (then the progress line shows without --progress)
     * @param verbose  --verbose
     */
    public Console(PrintStream out, PrintStream err, boolean terminal, boolean verbose) {
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
        this.terminal = terminal;
        this.verbose = verbose;
        this.detail = verbose ? out : NOWHERE;
    }

    /**
     * Runs a sweep of {@code config} at each of {@code threadCounts} against one server, within its {@link
     * MaxDuration}, where {@code ctrlC} stops it, and returns the exit code (see {@link ExitCodes}).
     *
     * @param starter starts the server when the config has no -i (Main passes the embedded Tomcat)
     * @param store   where the CPU per request measured is reused from and saved to
     */
    public int run(
            RunConfig config,
            List<Integer> threadCounts,
            LocalServer.Starter starter,
            CalibrationStore store,
            CtrlC ctrlC) {
        Sweep s = new Sweep(config, threadCounts, store, this);
        sweep = s;
        return ctrlC.run(s, () -> {
            Workload w = config.workload();
            try (RunDeadline deadline = RunDeadline.start(MaxDuration.of(s.runs()), w.maxDuration() == null, s::stop)) {
                String late = w.startAt() == null
                        ? null
                        : StartAt.onSystemClock(w.startAt()).lateness();
                if (late != null) { // before anything starts
                    err.println(late);
                    return UsageException.EXIT_CODE;
                }
                MetricsAddress address = config.output().metricsAddress();
                return address == null ? onServer(s, starter, null, deadline) : serving(address, s, starter, deadline);
            } finally {
                out.flush();
                err.flush();
            }
        });
    }

    /** Stops the sweep {@link #run} runs (nothing before it starts). */
    protected void stop() {
        Sweep s = sweep;
        if (s != null) {
            s.stop(null);
        }
    }

    /** Runs {@code s} while {@code --metrics-port} serves, then waits for one last scrape unless stopped. */
    private int serving(MetricsAddress address, Sweep s, LocalServer.Starter starter, RunDeadline deadline) {
        LiveMetrics live = new LiveMetrics();
        try (LiveEndpoint endpoint = LiveEndpoint.open(address, live)) {
            out.printf(
                    L,
                    "Live metrics: http://%s:%d/metrics%s (a live view; the summary is the account)%n",
                    address.host() == null ? "localhost" : address.host(),
                    endpoint.port(),
                    address.host() == null ? " and every address" : "");
            out.flush();
            int code = onServer(s, starter, live, deadline);
            if (!s.stopped()) {
                endpoint.awaitFinalScrape();
            }
            return code;
        } catch (IOException e) {
            err.println(RunOptions.METRICS_PORT.displayName() + " " + address + ": cannot listen: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** Runs {@code s} against -i, or the embedded server it starts and stops, and concludes. */
    private int onServer(Sweep s, LocalServer.Starter starter, LiveMetrics live, RunDeadline deadline) {
        RunConfig first = s.runs().get(0);
        LocalServer local = null;
        try {
            String baseUrl = first.target().baseUrl();
            if (baseUrl == null) {
                try {
                    local = starter.start();
                } catch (Exception e) {
                    err.println("cannot start the embedded server: " + e);
                    return 1;
                }
                baseUrl = local.baseUrl();
            }
            Sweep.Result r = s.run(baseUrl, local != null, live);
            if (r.failure() != null) {
                err.println(r.failure());
                return r.exitCode();
            }
            List<RunReport> reports = r.reports();
            if (reports.size() > 1) {
                BriefSummary.printSweep(out, reports);
                VerboseSummary.printSweep(detail, reports);
            }
            if (reports.size() < r.planned()) {
                out.printf(L, "Stopped: %d of %d runs done%n", reports.size(), r.planned());
            }
            int code = r.exitCode();
            if (deadline.reason() != null) {
                out.println(deadline.reason() + "; exit code " + ExitCodes.DEADLINE);
                code = ExitCodes.DEADLINE;
            }
            code = RunVerdict.conclude(out, err, first.output().summaryJson(), reports, code);
            afterAll(reports); // last: what to open next (client-part2's report.html)
            return code;
        } finally {
            if (local != null) {
                local.close();
                local.log().forEach(detail::println);
            }
        }
    }

    @Override
    public void warmingUp(int threads) {
        out.printf(
                L,
                "Warming up: slices of -t %d run until the JIT compiler has settled (at most %.0f s)...%n",
                threads,
                WarmUp.MAX_NANOS / 1e9);
        out.flush();
    }

    @Override
    public void warmedUp(int threads, WarmUp.Result w) {
        BriefSummary.printWarmUp(out, threads, w);
    }

    @Override
    public void server(RunConfig config, String baseUrl, boolean embedded) {
        BriefSummary.printServer(out, config, baseUrl, embedded);
    }

    @Override
    public void baseline(Baseline.Result b) {
        VerboseSummary.printBaseline(detail, b);
    }

    @Override
    public void measured(Baseline.Result b, CpuDemand demand, long requests, long baselineNanos) {
        BriefSummary.printBaseline(out, b, demand, requests, baselineNanos);
    }

    @Override
    public void waiting(Duration remaining) {
        out.printf(L, "Waiting %.1f s for --start-at%n", remaining.toMillis() / 1000.0);
        out.flush();
    }

    @Override
    public void planned(Workload workload, LoadPlan plan, Prediction naive, Prediction model) {
        BriefSummary.printPlan(out, workload, plan);
        VerboseSummary.printPlan(detail, workload, plan);
        VerboseSummary.printForecast(detail, naive, model);
    }

    @Override
    public ProgressListener progress(RunConfig config) {
        return ProgressPrinter.forRun(config.output().quiet(), config.output().progress() || terminal, err);
    }

    /** Prints the run's account; an override calls this first. */
    @Override
    public void afterRun(RunReport report) {
        BriefSummary.printResult(out, report);
        VerboseSummary.printResult(detail, report);
    }
}
