package io.upic.liftride.client;

import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.cli.MaxDuration;
import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.Baseline;
import io.upic.liftride.client.engine.Calibration;
import io.upic.liftride.client.engine.CalibrationStore;
import io.upic.liftride.client.engine.LoadEngine;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.engine.SilentServerDetector;
import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.client.jvm.ProcessCpu;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.report.BriefSummary;
import io.upic.liftride.client.report.ClosedNetwork;
import io.upic.liftride.client.report.CpuScope;
import io.upic.liftride.client.report.LittlesLaw;
import io.upic.liftride.client.report.Prediction;
import io.upic.liftride.client.report.ProgressPrinter;
import io.upic.liftride.client.report.Reconciliation;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.client.report.RunVerdict;
import io.upic.liftride.client.report.ShardNotes;
import io.upic.liftride.client.report.SummaryPrinter;
import io.upic.liftride.client.threshold.MetricSource;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client invocation from parsed flags to exit code: start the embedded server if no -i, the
 * pre-flight check, the baseline, each run (one, or one per thread count of a sweep) with its plan,
 * progress, summary, Little's law and reconciliation, then stop the server. The console gets the brief account
 * ({@link BriefSummary}), or with --verbose the full one ({@link SummaryPrinter}) and the embedded server's lines.
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
    /** The full account (--verbose), else nowhere; set by {@link #run} before anything prints. */
    private PrintStream out = NOWHERE;
    /** The brief account (the default), else nowhere; set by {@link #run} before anything prints. */
    private PrintStream brief = NOWHERE;

    /**
     * @param out     summaries go here
     * @param err     errors and the progress line go here
     * @param starter starts the server when a config has no -i (Main passes the embedded Tomcat)
     * @param console whether stderr is a terminal (then the progress line shows without --progress)
     */
    public ClientRunner(PrintStream out, PrintStream err, LocalServer.Starter starter, boolean console) {
        this(out, err, starter, console, CalibrationStore.NONE);
    }

    /** As the other constructor, reusing and saving full calibrations in {@code store}. */
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
     * failed, 4 when the counts could not be checked, 5 when the --max-duration passed.
     */
    public int run(List<RunConfig> configs, RunHooks hooks) {
        if (!used.compareAndSet(false, true)) {
            throw new IllegalStateException("run() may be called once per ClientRunner");
        }
        if (configs.isEmpty()) {
            throw new IllegalArgumentException("no run configs");
        }
        boolean verbose = configs.get(0).verbose();
        out = verbose ? stdout : NOWHERE;
        brief = verbose ? NOWHERE : stdout;
        try (RunDeadline deadline =
                RunDeadline.start(MaxDuration.of(configs), configs.get(0).maxDuration() == null, this::stopAt)) {
            return runAll(List.copyOf(configs), Objects.requireNonNull(hooks, "hooks"));
        } finally {
            stdout.flush();
            err.flush();
            finished.countDown();
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
            String baseUrl = first.baseUrl();
            if (first.embeddedServer()) {
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
                            .mapToInt(c -> c.loadPlan().totalThreads())
                            .max()
                            .orElse(1);
            HttpSettings http =
                    new HttpSettings(baseUrl, first.connectTimeoutMillis(), first.readTimeoutMillis(), maxConnections);
            try (RideSenderFactory senders = first.transport().open(http)) {
                BriefSummary.printServer(brief, first, baseUrl, local != null);
                baselineStartNanos = System.nanoTime();
                long runsRequests = configs.stream()
                        .mapToLong(c -> c.loadPlan().totalRequests())
                        .sum();
                Baseline.Result baseline = baseline(first, senders, runsRequests);
                if (serverGone != null) {
                    err.println("baseline: " + serverGone + "; no run started");
                    return 1;
                }
                Target target = new Target(baseUrl, local != null);
                Calibrated calibration = calibrated(configs, target, senders, baseline, runsRequests, hooks);
                if (serverGone != null) {
                    err.println("calibration: " + serverGone + "; no run started");
                    return 1;
                }
                printBriefCalibration(baseline, calibration);
                List<RunReport> reports = new ArrayList<>(configs.size());
                boolean ok = true;
                for (RunConfig c : configs) {
                    // after a give-up the next runs of a sweep would only wait out the same silence
                    if (stopRequested || serverGone != null) {
                        break;
                    }
                    RunReport report = runOne(c, target, senders, baseline, calibration, hooks);
                    reports.add(report);
                    ok &= report.ok();
                }
                if (reports.size() > 1) {
                    SummaryPrinter.printSweep(out, reports);
                    BriefSummary.printSweep(brief, reports);
                }
                if (reports.size() < configs.size()) {
                    stdout.printf(Locale.US, "Stopped: %d of %d runs done%n", reports.size(), configs.size());
                }
                int code = ok && reports.size() == configs.size() && !stopRequested ? 0 : 1;
                if (deadlineReason != null) {
                    stdout.println(deadlineReason + "; exit code " + ExitCodes.DEADLINE);
                    code = ExitCodes.DEADLINE;
                }
                code = RunVerdict.conclude(stdout, err, first.summaryJson(), reports, code);
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

    /** The brief account's calibration line, with its self-check when a full calibration measured D and Z. */
    private void printBriefCalibration(Baseline.Result baseline, Calibrated calibration) {
        int cores = Runtime.getRuntime().availableProcessors();
        Calibration.Result measured = calibration.measured() ? calibration.calibration() : null;
        BriefSummary.printCalibration(
                brief,
                baseline,
                measured,
                calibration.network(),
                measured == null ? Double.NaN : LittlesLaw.selfCheck(baseline, measured, cores),
                System.nanoTime() - baselineStartNanos);
    }

    /** The single-thread baseline: --baseline requests, at most half the runs' each, warm-up then measured. */
    private Baseline.Result baseline(RunConfig config, RideSenderFactory senders, long runsRequests) {
        if (config.baselineRequests() == 0 || stopRequested) {
            return null;
        }
        RunConfig c =
                config.withBaselineRequests((int) Math.min(config.baselineRequests(), Math.max(1, runsRequests / 2)));
        // N warm-up requests first (a cold JVM's first requests are mostly JIT compilation), then N measured
        out.printf(
                Locale.US,
                "Baseline: sending %,d warm-up + %,d measured requests from 1 thread to measure the latency W "
                        + "and the CPU per request D for Little's law...%n",
                c.baselineRequests(),
                c.baselineRequests());
        out.flush();
        SilentServerDetector silentServer =
                new SilentServerDetector(c.retryPolicy().giveUpAfterMillis(), System.nanoTime(), null);
        Baseline.Result b = Baseline.run(senders, c.baselineSpec(), this::isStopRequested, silentServer);
        SummaryPrinter.printBaseline(out, b);
        if (silentServer.gaveUp()) {
            serverGone = silentServer.reason();
        }
        return b;
    }

    /**
     * What the model takes from a calibration (D and Z, in {@code network}), and the calibration part that ran on
     * this JVM, if any; both null without a usable baseline. {@code measured}: D and Z come from that part (a full
     * calibration), so it can check its own model.
     */
    private record Calibrated(Calibration.Result calibration, Prediction.Network network, boolean measured) {
        static final Calibrated NONE = new Calibrated(null, null, false);
    }

    /**
     * The model's inputs after a usable baseline: light (the baseline's D) for runs shorter than a calibration's
     * warm-up, a stored calibration while reusable (its D and Z, after one slice that warms the run's code), or a
     * full calibration (see {@link #fullCalibration}), which is then stored.
     */
    private Calibrated calibrated(
            List<RunConfig> configs,
            Target target,
            RideSenderFactory senders,
            Baseline.Result baseline,
            long runsRequests,
            RunHooks hooks) {
        if (baseline == null || baseline.successful() == 0 || baseline.stopped() || stopRequested) {
            return Calibrated.NONE;
        }
        RunConfig c = configs.get(0);
        int threads = Math.min(
                Calibration.THREADS,
                configs.stream()
                        .mapToInt(k -> k.loadPlan().totalThreads())
                        .max()
                        .orElse(1));
        int cores = Runtime.getRuntime().availableProcessors();
        CpuScope scope = CpuScope.of(target.embedded());
        double w = baseline.meanLatencyNanos();
        double lightD = baseline.coldCpuNanosPerRequest();
        if (!c.recalibrate() && lightD > 0 && runsRequests * lightD / cores < Calibration.WARMUP_NANOS) {
            out.printf(
                    Locale.US,
                    "Calibration: light, the runs being shorter than a calibration: D = %.1f us from the baseline"
                            + " (a cold JVM's, not stored), so the model is rough%n",
                    lightD / 1e3);
            return new Calibrated(
                    null,
                    new Prediction.Network(
                            new ClosedNetwork(cores, lightD, Math.max(0, w - lightD)),
                            scope,
                            "light: a cold baseline's, rough"),
                    false);
        }
        String key = CalibrationStore.key(
                target.embedded() ? "embedded" : target.baseUrl(), c.transport().cliName());
        long part = Calibration.partNanos(baseline.wallNanos());
        CalibrationStore.Entry stored = c.recalibrate()
                ? null
                : store.find(key).filter(e -> e.reusable(w, Instant.now())).orElse(null);
        if (stored != null) {
            Calibration.Result k = calibrationPart(c, target.baseUrl(), senders, threads, part, 0, hooks);
            out.printf(
                    Locale.US,
                    "Calibration: stored %s for this machine, server and transport: D = %.1f us, Z = %.3f ms"
                            + " (%d threads warmed this JVM for %.1f s, D there %.1f us; --recalibrate measures"
                            + " again)%n",
                    stored.measuredAt().truncatedTo(ChronoUnit.SECONDS),
                    stored.demandNanos() / 1e3,
                    stored.delayNanosAt(w) / 1e6,
                    k.threads(),
                    k.costNanos() / 1e9,
                    k.cpuNanosPerRequest() / 1e3);
            ClosedNetwork n = new ClosedNetwork(cores, stored.demandNanos(), stored.delayNanosAt(w));
            return new Calibrated(
                    k,
                    new Prediction.Network(
                            n, scope, "stored " + stored.measuredAt().truncatedTo(ChronoUnit.MINUTES)),
                    false);
        }
        Calibrated full = fullCalibration(c, target, senders, baseline, threads, part, hooks);
        Prediction.Network n = full.network();
        if (n != null && !stopRequested && serverGone == null) {
            store.save(key, new CalibrationStore.Entry(n.cpuNanosPerRequest(), n.delayNanos(), w, Instant.now()));
        }
        return full;
    }

    /**
     * The full load calibration, through the same engine and listener a run uses: {@code threads} threads warm the
     * JVM and measure D; then half as many, on the warm JVM, measure the delay under load Z, which the model takes
     * when it exceeds the baseline's W - D.
     */
    private Calibrated fullCalibration(
            RunConfig c,
            Target target,
            RideSenderFactory senders,
            Baseline.Result baseline,
            int threads,
            long part,
            RunHooks hooks) {
        String baseUrl = target.baseUrl();
        CpuScope scope = CpuScope.of(target.embedded());
        out.printf(
                Locale.US,
                "Calibration: %d threads warm up for %.1f s, then %.1f s measured for the CPU per request D under load,"
                        + " then %d threads for the delay Z (stored for a day; --recalibrate measures again)...%n",
                threads,
                Calibration.WARMUP_NANOS / 1e9,
                part / 1e9,
                Math.max(1, threads / 2));
        out.flush();
        Calibration.Result k = calibrationPart(c, baseUrl, senders, threads, part, Calibration.WARMUP_NANOS, hooks);
        int cores = Runtime.getRuntime().availableProcessors();
        SummaryPrinter.printCalibration(
                out, k, System.nanoTime() - baselineStartNanos, LittlesLaw.selfCheck(baseline, k, cores), cores);
        if (!k.usable() || stopRequested || serverGone != null) {
            return new Calibrated(k, LittlesLaw.network(baseline, k, null, cores, scope), true);
        }
        Calibration.Result d = calibrationPart(c, baseUrl, senders, Math.max(1, threads / 2), part, 0, hooks);
        if (d.usable()) {
            out.printf(
                    Locale.US,
                    "Calibration, delay part: %d threads, %,.0f req/s in %.1f s: the delay under load Z = %.1f us at"
                            + " D = %.1f us (the baseline's W - D: %.1f us); the model takes the larger%n",
                    d.threads(),
                    d.throughputPerSecond(),
                    d.wallNanos() / 1e9,
                    LittlesLaw.loadDelayNanos(cores, k.cpuNanosPerRequest(), d) / 1e3,
                    k.cpuNanosPerRequest() / 1e3,
                    Math.max(0, baseline.meanLatencyNanos() - k.cpuNanosPerRequest()) / 1e3);
        }
        return new Calibrated(k, LittlesLaw.network(baseline, k, d, cores, scope), true);
    }

    /**
     * One calibration part: {@code threads} threads through the run's own engine, listener and control request; a
     * give-up on a silent server ends the invocation.
     */
    private Calibration.Result calibrationPart(
            RunConfig c,
            String baseUrl,
            RideSenderFactory senders,
            int threads,
            long part,
            long warmupNanos,
            RunHooks hooks) {
        LoadPlan plan = Calibration.plan(threads, c.baselineSpec().skiers());
        Calibration.Result r = Calibration.run(
                senders,
                c.baselineSpec(),
                plan,
                new Calibration.Length(warmupNanos, part),
                this::isStopRequested,
                hooks.calibrationListener(plan),
                () -> probe(c, baseUrl));
        if (r.gaveUpReason() != null) {
            serverGone = r.gaveUpReason();
        }
        return r;
    }

    /** Where a run sends: the base URL, and whether the client started that server itself. */
    private record Target(String baseUrl, boolean embedded) {}

    private RunReport runOne(
            RunConfig c,
            Target target,
            RideSenderFactory senders,
            Baseline.Result baseline,
            Calibrated calibration,
            RunHooks hooks) {
        String baseUrl = target.baseUrl();
        boolean embedded = target.embedded();
        LoadPlan plan = c.loadPlan();
        out.println();
        SummaryPrinter.printPlan(out, c, plan, baseUrl, embedded);
        BriefSummary.printPlan(brief, c, plan);
        int cores = Runtime.getRuntime().availableProcessors();
        Prediction naive = LittlesLaw.predict(plan, baseline);
        Prediction.Network network = calibration.network();
        Prediction model = network == null ? null : LittlesLaw.mva(plan, baseline.meanLatencyNanos(), network);
        SummaryPrinter.printForecast(out, naive, model);
        // Read after the baseline: its rides are stored too, and belong to no run.
        ServerProbe.Answer before = probe(c, baseUrl);
        AttemptListener listener = hooks.listener(c, plan);
        LoadEngine e = LoadEngine.builder(plan, senders)
                .ride(c.ride())
                .retryPolicy(c.retryPolicy())
                .seed(c.seed())
                .listener(listener)
                .openModel(c.openModel())
                .progress(ProgressPrinter.forRun(c.quiet(), c.progress() || console, err), 1_000)
                .build();
        engine = e;
        if (stopRequested) { // a stop that arrived before `engine` was set
            e.stop(deadlineReason);
        }
        RunResult result;
        long jitBefore = ProcessCpu.jitCompilerNanos();
        long cpuBefore = ProcessCpu.nanos();
        try {
            result = e.run();
        } finally {
            engine = null;
        }
        if (e.gaveUp()) {
            serverGone = e.gaveUpReason();
        }
        long cpuAfter = ProcessCpu.nanos();
        long jitAfter = ProcessCpu.jitCompilerNanos();
        ServerProbe.Answer after = probe(c, baseUrl);
        String whyNot = before.ridesStored().isEmpty()
                ? "before the run: " + before.failure()
                : after.ridesStored().isEmpty()
                        ? "after the run: " + after.failure()
                        : c.shard().whole() ? null : ShardNotes.serverNotReconciled(c.shard(), before, after);
        Reconciliation reconciliation = Reconciliation.of(result, before.ridesStored(), after.ridesStored(), whyNot);
        RunReport report = RunReport.builder()
                .config(c)
                .plan(plan)
                .serverUrl(baseUrl)
                .embeddedServer(embedded)
                .baseline(baseline)
                .prediction(naive)
                .calibration(calibration.calibration())
                .model(model)
                .result(result)
                .reconciliation(reconciliation)
                .processCpuNanos(cpuBefore < 0 || cpuAfter < 0 ? -1 : cpuAfter - cpuBefore)
                .jitCpuNanos(Math.max(0, jitAfter - jitBefore))
                .cores(cores)
                .build();
        MetricSource metrics = hooks.metrics(report);
        report = RunVerdict.judge(report, metrics, hooks.clientName(), c.rate()); // null in the closed model
        SummaryPrinter.printResult(out, report);
        BriefSummary.printResult(brief, report);
        hooks.afterRun(report);
        return report;
    }

    private static ServerProbe.Answer probe(RunConfig c, String baseUrl) {
        return ServerProbe.statistics(
                baseUrl, c.connectTimeoutMillis(), Math.min(c.readTimeoutMillis(), PROBE_READ_TIMEOUT_MS));
    }
}
