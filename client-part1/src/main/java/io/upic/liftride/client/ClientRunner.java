package io.upic.liftride.client;

import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.cli.MaxDuration;
import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.cli.StartAt;
import io.upic.liftride.client.cli.Workload;
import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.LoadEngine;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.engine.SilentServerDetector;
import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.client.jvm.ProcessCpu;
import io.upic.liftride.client.live.LiveEndpoint;
import io.upic.liftride.client.live.LiveMetrics;
import io.upic.liftride.client.live.MetricsAddress;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CalibrationStore;
import io.upic.liftride.client.prediction.CpuDemand;
import io.upic.liftride.client.prediction.CpuScope;
import io.upic.liftride.client.prediction.LittlesLaw;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.prediction.WarmUp;
import io.upic.liftride.client.report.BriefSummary;
import io.upic.liftride.client.report.ProgressPrinter;
import io.upic.liftride.client.report.Reconciliation;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.client.report.RunVerdict;
import io.upic.liftride.client.report.ShardNotes;
import io.upic.liftride.client.report.VerboseSummary;
import io.upic.liftride.client.threshold.AbortWatch;
import io.upic.liftride.client.threshold.MetricSource;
import io.upic.liftride.flags.UsageException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

/**
 * One client invocation from parsed flags to exit code: start the embedded server if no -i, the
 * pre-flight check, the baseline, each run (one, or one per thread count of a sweep) with its plan,
 * progress, summary, Little's law and reconciliation, then stop the server. The console gets the brief account
 * ({@link BriefSummary}), and with --verbose also the full one ({@link VerboseSummary}) and the embedded server's
 * lines.
 * client-part2 reuses it whole and adds its instrumentation through {@link RunHooks}.
 *
 * <p>{@link #run} may be called once; {@link #stop()} and {@link #awaitFinished} are thread-safe (a
 * shutdown hook calls them).
 */
public final class ClientRunner {

    /** Bound on each {@code GET /statistics}: the pre-flight must fail fast, not after a long read timeout. */
    private static final int PROBE_READ_TIMEOUT_MS = 5_000;

    private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    private final PrintStream stdout;
    private final PrintStream err;
    private final LocalServer.Starter starter;
    private final boolean console;

    private final AtomicBoolean used = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopRequested;
    /** Why the invocation stopped at its --max-duration (see RunDeadline); null while it has not. */
    private volatile String deadlineReason;
    /** Why a run or the baseline gave up on a silent server (see SilentServerDetector); null while it answers. */
    private volatile String serverGone;

    private final CalibrationStore store;
    /** When the baseline started; written and read on the runner's thread. */
    private long baselineStartNanos;

    private volatile LoadEngine engine;
    /** What --metrics-port serves; null without it. Set before the first run, on the runner's thread. */
    private LiveMetrics live;
    /** What --verbose adds to the brief account, else nowhere; set by {@link #run} before anything prints. */
    private PrintStream out = NOWHERE;

    /**
     * @param out     summaries go here
     * @param err     errors and the progress line go here
     * @param starter starts the server when a config has no -i (Main passes the embedded Tomcat)
     * @param console whether stderr is a terminal (then the progress line shows without --progress)
     */
    public ClientRunner(PrintStream out, PrintStream err, LocalServer.Starter starter, boolean console) {
        this(out, err, starter, console, CalibrationStore.NONE);
    }

    /** As the other constructor, reusing and saving the CPU per request the runs measured in {@code store}. */
    public ClientRunner(
            PrintStream out, PrintStream err, LocalServer.Starter starter, boolean console, CalibrationStore store) {
        this.store = Objects.requireNonNull(store, "store");
        this.stdout = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
        this.starter = Objects.requireNonNull(starter, "starter");
        this.console = console;
    }

    /**
     * Runs every config in order against one server (the first config decides which), within the first config's
     * {@link MaxDuration}, and returns the exit code ({@link ExitCodes}): 0 when every request of every run got its
     * 201 and the counts reconcile, 1 otherwise (including an unreachable server and a stop), 3 when a --threshold
     * failed or --abort-on-fail stopped a run (and so the later ones), 4 when the counts could not be checked, 5 when
     * the --max-duration passed.
     */
    public int run(List<RunConfig> configs, RunHooks hooks) {
        if (!used.compareAndSet(false, true)) {
            throw new IllegalStateException("run() may be called once per ClientRunner");
        }
        if (configs.isEmpty()) {
            throw new IllegalArgumentException("no run configs");
        }
        boolean verbose = configs.get(0).output().verbose();
        out = verbose ? stdout : NOWHERE;
        try (RunDeadline deadline = RunDeadline.start(
                MaxDuration.of(configs), configs.get(0).workload().maxDuration() == null, this::stopAt)) {
            if (lateStart(configs.get(0), false)) { // before anything starts
                return UsageException.EXIT_CODE;
            }
            RunHooks h = Objects.requireNonNull(hooks, "hooks");
            return servingLiveMetrics(configs.get(0).output().metricsAddress(), () -> runAll(List.copyOf(configs), h));
        } finally {
            stdout.flush();
            err.flush();
            finished.countDown();
        }
    }

    /**
     * Runs {@code body} while {@code --metrics-port} serves every run's live figures (nothing to serve when {@code
     * address} is null), then, unless stopped, waits for one more scrape so that the scraper has the final figures.
     */
    private int servingLiveMetrics(MetricsAddress address, IntSupplier body) {
        if (address == null) {
            return body.getAsInt();
        }
        live = new LiveMetrics();
        try (LiveEndpoint endpoint = LiveEndpoint.open(address, live)) {
            stdout.printf(
                    Locale.US,
                    "Live metrics: http://%s:%d/metrics%s (a live view; the summary is the account)%n",
                    address.host() == null ? "localhost" : address.host(),
                    endpoint.port(),
                    address.host() == null ? " and every address" : "");
            stdout.flush();
            int code = body.getAsInt();
            if (!stopRequested) {
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

    /** Ends the current run early (see {@link LoadEngine#stop()}) and skips the rest; idempotent. */
    public void stop() {
        stopRequested = true;
        LoadEngine e = engine;
        if (e != null) {
            e.stop(deadlineReason);
        }
    }

    /** {@link #stop()} at the --max-duration, which {@code reason} names in the run's problems and the last lines. */
    private void stopAt(String reason) {
        deadlineReason = reason;
        stop();
    }

    public boolean isStopRequested() {
        return stopRequested;
    }

    /** Waits until {@link #run} has returned (printing done); false on timeout. */
    public boolean awaitFinished(long timeout, TimeUnit unit) throws InterruptedException {
        return finished.await(timeout, unit);
    }

    /** Whether {@link #run} was called and has returned. */
    public boolean isFinished() {
        return finished.getCount() == 0;
    }

    private int runAll(List<RunConfig> configs, RunHooks hooks) {
        RunConfig first = configs.get(0);
        LocalServer local = null;
        try {
            String baseUrl = first.target().baseUrl();
            if (first.target().embeddedServer()) {
                try {
                    local = starter.start();
                } catch (Exception e) {
                    err.println("cannot start the embedded server: " + e);
                    return 1;
                }
                baseUrl = local.baseUrl();
            }
            ServerProbe.Answer preflight = probe(first, baseUrl);
            if (!preflight.reachable()) {
                err.println("cannot reach server at " + baseUrl + ": " + preflight.failure());
                return 1;
            }
            int maxConnections = 1
                    + configs.stream()
                            .mapToInt(c -> c.workload().loadPlan().totalThreads())
                            .max()
                            .orElse(1);
            HttpSettings http = new HttpSettings(
                    baseUrl,
                    first.target().connectTimeoutMillis(),
                    first.target().readTimeoutMillis(),
                    maxConnections);
            try (RideSenderFactory senders = first.target().transport().open(http)) {
                long runsRequests = configs.stream()
                        .mapToLong(c -> c.workload().loadPlan().totalRequests())
                        .sum();
                // at most half the runs' requests each, warm-up and measured
                RunConfig measured = first.withChecks(first.checks().withBaselineRequests((int)
                        Math.min(first.checks().baselineRequests(), Math.max(1, runsRequests / 2))));
                String key = CalibrationStore.key(
                        local != null ? "embedded" : baseUrl,
                        first.target().transport().cliName());
                CalibrationStore.Entry stored = stored(first, key);
                WarmUp.Result warmUp = stored == null ? warmUp(first, senders, runsRequests / 2) : null;
                BriefSummary.printServer(stdout, measured, baseUrl, local != null);
                baselineStartNanos = System.nanoTime();
                Baseline.Result baseline = baseline(measured, senders);
                if (serverGone != null) {
                    err.println("baseline: " + serverGone + "; no run started");
                    return 1;
                }
                Target target = new Target(baseUrl, local != null);
                CpuDemand demand = demand(baseline, stored, warmUp);
                BriefSummary.printBaseline(
                        stdout, baseline, demand, first.workload().loadPlan().totalRequests(), elapsedSince(baseline));
                if (lateStart(first, true)) {
                    return UsageException.EXIT_CODE;
                }
                List<RunReport> reports = runEach(configs, target, senders, baseline, demand, hooks);
                if (demand != null && !stopRequested && serverGone == null) {
                    demand.toStore(Instant.now()).ifPresent(e -> store.save(key, e));
                }
                boolean ok = reports.stream().allMatch(RunReport::ok);
                if (reports.size() > 1) {
                    BriefSummary.printSweep(stdout, reports);
                    VerboseSummary.printSweep(out, reports);
                }
                if (reports.size() < configs.size()) {
                    stdout.printf(Locale.US, "Stopped: %d of %d runs done%n", reports.size(), configs.size());
                }
                int code = ok && complete(reports, configs.size()) && !stopRequested ? 0 : 1;
                if (deadlineReason != null) {
                    stdout.println(deadlineReason + "; exit code " + ExitCodes.DEADLINE);
                    code = ExitCodes.DEADLINE;
                }
                code = RunVerdict.conclude(stdout, err, first.output().summaryJson(), reports, code);
                // last: what to open next (client-part2's report.html)
                hooks.afterAll(reports);
                return code;
            }
        } finally {
            if (local != null) {
                local.close();
                local.log().forEach(out::println);
            }
        }
    }

    /** Whether every planned run ran, or --abort-on-fail ended the invocation early on purpose. */
    private static boolean complete(List<RunReport> reports, int planned) {
        return reports.size() == planned || reports.stream().anyMatch(r -> r.abort() != null);
    }

    /**
     * Whether {@code c}'s --start-at has passed by more than its tolerance, which one line on stderr then says; with
     * {@code wait}, after sleeping until the instant when it is ahead (a stop or Ctrl-C ends the wait).
     */
    private boolean lateStart(RunConfig c, boolean wait) {
        if (c.workload().startAt() == null) {
            return false;
        }
        StartAt startAt = StartAt.onSystemClock(c.workload().startAt());
        String late = startAt.lateness();
        if (wait && late == null) {
            stdout.printf(
                    Locale.US,
                    "Waiting %.1f s for --start-at%n",
                    startAt.remaining().toMillis() / 1000.0);
            stdout.flush();
            try {
                late = startAt.await(this::isStopRequested);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop();
            }
        }
        if (late != null) {
            err.println(late);
        }
        return late != null;
    }

    /** Each config's run in order, until a stop, a silent server or an abort. */
    private List<RunReport> runEach(
            List<RunConfig> configs,
            Target target,
            RideSenderFactory senders,
            Baseline.Result baseline,
            CpuDemand demand,
            RunHooks hooks) {
        List<RunReport> reports = new ArrayList<>(configs.size());
        for (RunConfig c : configs) {
            // after a give-up the next runs of a sweep would only wait out the same silence
            if (stopRequested || serverGone != null) {
                break;
            }
            RunReport report = runOne(c, target, senders, baseline, demand, hooks);
            reports.add(report);
            if (report.abort() != null) { // the invocation's verdict is lost: the rest would only cost time
                break;
            }
        }
        return reports;
    }

    private long elapsedSince(Baseline.Result baseline) {
        return baseline == null ? 0 : System.nanoTime() - baselineStartNanos;
    }

    /** The single-thread baseline of {@code c}'s requests, warm-up then measured; null for none. */
    private Baseline.Result baseline(RunConfig c, RideSenderFactory senders) {
        if (c.checks().baselineRequests() == 0 || stopRequested) {
            return null;
        }
        // N warm-up requests first (a cold JVM's first requests are mostly JIT compilation), then N measured
        SilentServerDetector silentServer =
                new SilentServerDetector(c.target().retryPolicy().giveUpAfterMillis(), System.nanoTime(), null);
        Baseline.Result b = Baseline.run(senders, c.baselineSpec(), this::isStopRequested, silentServer);
        VerboseSummary.printBaseline(out, b);
        if (silentServer.gaveUp()) {
            serverGone = silentServer.reason();
        }
        return b;
    }

    /** The entry stored for {@code key} while it is reusable (not with --recalibrate, nor without a baseline). */
    private CalibrationStore.Entry stored(RunConfig c, String key) {
        if (c.checks().recalibrate() || c.checks().baselineRequests() == 0) {
            return null;
        }
        return store.find(key).filter(e -> e.reusable(Instant.now())).orElse(null);
    }

    /**
     * With nothing stored, warms the JVM up with slices of at most {@code first}'s threads and {@code maxAttempts}
     * requests (see {@link WarmUp}); null without a baseline (no model to feed), a store to keep what it learns,
     * {@link WarmUp#MIN_ATTEMPTS} to make, or when nothing ran.
     */
    private WarmUp.Result warmUp(RunConfig first, RideSenderFactory senders, long maxAttempts) {
        if (first.checks().baselineRequests() == 0
                || maxAttempts < WarmUp.MIN_ATTEMPTS
                || !store.keeps()
                || stopRequested) {
            return null;
        }
        // few threads: on a small machine the compiler threads get a fair share of the CPU only beside few others
        int threads =
                Math.min(first.workload().threads(), 2 * Runtime.getRuntime().availableProcessors());
        stdout.printf(
                Locale.US,
                "Warming up: nothing stored for this machine, so slices of -t %d run until the JIT compiler has"
                        + " settled (at most %.0f s, then stored)...%n",
                threads,
                WarmUp.MAX_NANOS / 1e9);
        stdout.flush();
        Workload slices =
                first.workload().withThreads(threads).withShard(Shard.WHOLE).withRamp(null); // slices of the phases
        double requestsPerSkier =
                (double) slices.wholePlan().totalRequests() / first.workload().skiers();
        WarmUp.Result w = WarmUp.run(
                requests -> runEngine(LoadEngine.builder(
                                slices.withSkiers((int) Math.max(threads, requests / requestsPerSkier))
                                        .loadPlan(),
                                senders)
                        .ride(first.workload().ride())
                        .retryPolicy(first.target().retryPolicy())
                        .build()),
                maxAttempts,
                () -> stopRequested || serverGone != null);
        BriefSummary.printWarmUp(stdout, threads, w);
        return w;
    }

    /** Where the model's D comes from for each run; null without a usable baseline. */
    private static CpuDemand demand(Baseline.Result baseline, CalibrationStore.Entry stored, WarmUp.Result warmUp) {
        if (baseline == null || baseline.successful() == 0 || baseline.stopped()) {
            return null;
        }
        return new CpuDemand(baseline, stored, warmUp);
    }

    /** Runs {@code e} where {@link #stop()} reaches it; a server that went silent ends the invocation. */
    private RunResult runEngine(LoadEngine e) {
        engine = e;
        if (stopRequested) { // a stop that arrived before `engine` was set
            e.stop(deadlineReason);
        }
        try {
            return e.run();
        } finally {
            engine = null;
            if (e.gaveUp()) {
                serverGone = e.gaveUpReason();
            }
        }
    }

    /** Where a run sends: the base URL, and whether the client started that server itself. */
    private record Target(String baseUrl, boolean embedded) {}

    private RunReport runOne(
            RunConfig c,
            Target target,
            RideSenderFactory senders,
            Baseline.Result baseline,
            CpuDemand demand,
            RunHooks hooks) {
        String baseUrl = target.baseUrl();
        boolean embedded = target.embedded();
        LoadPlan plan = c.workload().loadPlan();
        BriefSummary.printPlan(stdout, c.workload(), plan);
        VerboseSummary.printPlan(out, c.workload(), plan);
        int cores = Runtime.getRuntime().availableProcessors();
        Prediction naive = LittlesLaw.predict(plan, baseline);
        Prediction.Network network = demand == null
                ? null
                : demand.network(plan.totalRequests(), baseline.meanLatencyNanos(), cores, CpuScope.of(embedded));
        Prediction model = network == null ? null : LittlesLaw.mva(plan, baseline.meanLatencyNanos(), network);
        VerboseSummary.printForecast(out, naive, model);
        // Read after the baseline: its rides are stored too, and belong to no run.
        ServerProbe.Answer before = probe(c, baseUrl);
        AttemptListener listener = hooks.listener(c, plan);
        AbortWatch watch = c.checks().abortOnFail()
                ? new AbortWatch(c.checks().thresholds(), c.checks().abortDelay(), plan.totalRequests(), listener)
                : null;
        LoadEngine e = LoadEngine.builder(plan, senders)
                .ride(c.workload().ride())
                .mix(c.workload().mix())
                .retryPolicy(c.target().retryPolicy())
                .seed(c.workload().seed())
                .listener(watch == null ? listener : watch)
                .openModel(c.workload().openModel())
                .ramp(c.workload().ramp())
                .progress(ProgressPrinter.forRun(c.output().quiet(), c.output().progress() || console, err), 1_000)
                .build();
        watch(e, c, watch);
        long jitBefore = ProcessCpu.jitCompilerNanos();
        long cpuBefore = ProcessCpu.nanos();
        RunResult result = runEngine(e);
        long cpuAfter = ProcessCpu.nanos();
        long jitAfter = ProcessCpu.jitCompilerNanos();
        if (demand != null) {
            demand.learn(
                    "-t " + plan.numThreads(),
                    result.requests().attempts(),
                    cpuBefore < 0 || cpuAfter < 0 ? -1 : cpuAfter - cpuBefore,
                    Math.max(0, jitAfter - jitBefore));
        }
        ServerProbe.Answer after = probe(c, baseUrl);
        String whyNot = before.ridesStored().isEmpty()
                ? "before the run: " + before.failure()
                : after.ridesStored().isEmpty()
                        ? "after the run: " + after.failure()
                        : c.workload().shard().whole()
                                ? null
                                : ShardNotes.serverNotReconciled(c.workload().shard(), before, after);
        Reconciliation reconciliation = Reconciliation.of(result, before.ridesStored(), after.ridesStored(), whyNot);
        RunReport report = RunReport.builder()
                .config(c)
                .plan(plan)
                .serverUrl(baseUrl)
                .embeddedServer(embedded)
                .baseline(baseline)
                .prediction(naive)
                .model(model)
                .result(result)
                .reconciliation(reconciliation)
                .processCpuNanos(cpuBefore < 0 || cpuAfter < 0 ? -1 : cpuAfter - cpuBefore)
                .jitCpuNanos(Math.max(0, jitAfter - jitBefore))
                .cores(cores)
                .abort(watch == null ? null : watch.abort())
                .build();
        MetricSource metrics = hooks.metrics(report);
        report = RunVerdict.judge(
                report, metrics, hooks.clientName(), c.workload().rate()); // null in the closed model
        BriefSummary.printResult(stdout, report);
        VerboseSummary.printResult(out, report);
        hooks.afterRun(report);
        return report;
    }

    /** Lets --metrics-port serve {@code e}'s live figures, and {@code abort} (if not null) judge and stop it. */
    private void watch(LoadEngine e, RunConfig c, AbortWatch abort) {
        if (live != null) {
            live.watch(e.runId(), c.workload().startAt(), c.workload().shard(), e::live);
        }
        if (abort != null) {
            abort.attach(e::live, e::stop);
        }
    }

    private static ServerProbe.Answer probe(RunConfig c, String baseUrl) {
        return ServerProbe.statistics(
                baseUrl,
                c.target().connectTimeoutMillis(),
                Math.min(c.target().readTimeoutMillis(), PROBE_READ_TIMEOUT_MS));
    }
}
