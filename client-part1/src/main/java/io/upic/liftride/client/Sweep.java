package io.upic.liftride.client;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.cli.StartAt;
import io.upic.liftride.client.cli.Target;
import io.upic.liftride.client.cli.Workload;
import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.LoadEngine;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.engine.SilentServerDetector;
import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.client.jvm.ProcessCpu;
import io.upic.liftride.client.live.LiveMetrics;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CalibrationStore;
import io.upic.liftride.client.prediction.CpuDemand;
import io.upic.liftride.client.prediction.CpuScope;
import io.upic.liftride.client.prediction.LittlesLaw;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.prediction.WarmUp;
import io.upic.liftride.client.report.Reconciliation;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.client.report.RunVerdict;
import io.upic.liftride.client.report.ShardNotes;
import io.upic.liftride.client.threshold.AbortWatch;
import io.upic.liftride.flags.UsageException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The runs of one invocation, one per thread count of -t, with the pre-flight check, the baseline and each
 * run's reconciliation; prints nothing, telling its {@link RunHooks} instead. {@link #run} is called once,
 * on one thread; {@link #stop} is thread-safe.
 */
public final class Sweep {

    /** Bound on each {@code GET /statistics}: the pre-flight must fail fast, not after a long read timeout. */
    private static final int PROBE_READ_TIMEOUT_MS = 5_000;

    private final List<RunConfig> runs;
    private final CalibrationStore store;
    private final RunHooks hooks;
    /** Set once by {@link #stop} (Ctrl-C, --max-duration) on another thread; read by the run's thread between steps. */
    private final AtomicReference<Stop> stop = new AtomicReference<>();
    /** The run in progress, for {@link #stop} to reach; null between runs. */
    private volatile LoadEngine engine;

    /** A stop request; {@code reason} (null for Ctrl-C) goes to the stopped run's problems. */
    private record Stop(String reason) {}

    /**
     * What {@link #run} returns.
     *
     * @param reports  the runs done, in order
     * @param planned  the runs planned
     * @param stopped  whether {@link #stop} ended it
     * @param failure  why no run could start (the pre-flight, a silent server, a late --start-at); null if they could
     * @param exitCode 0 when every planned run ran and every request got its 201 and the counts reconcile (or
     *                 --abort-on-fail ended the sweep), else 1; a late --start-at's 2
     */
    public record Result(List<RunReport> reports, int planned, boolean stopped, String failure, int exitCode) {

        static Result failed(String failure, int exitCode) {
            return new Result(List.of(), 0, false, failure, exitCode);
        }

        static Result of(List<RunReport> reports, int planned, boolean stopped) {
            boolean complete = reports.size() == planned || reports.stream().anyMatch(r -> r.abort() != null);
            boolean ok = reports.stream().allMatch(RunReport::ok) && complete && !stopped;
            return new Result(List.copyOf(reports), planned, stopped, null, ok ? 0 : 1);
        }
    }

    /**
     * @param config       what every run shares
     * @param threadCounts -t: one run per count, in this order
     * @param store        where the CPU per request measured is reused from and saved to
     * @param hooks        told of every step, on the thread that calls {@link #run}
     */
    public Sweep(RunConfig config, List<Integer> threadCounts, CalibrationStore store, RunHooks hooks) {
        this.runs = threadCounts.stream().map(config::withThreads).toList();
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no thread counts");
        }
        this.store = Objects.requireNonNull(store, "store");
        this.hooks = Objects.requireNonNull(hooks, "hooks");
    }

    /** The planned runs, one config per thread count. */
    public List<RunConfig> runs() {
        return runs;
    }

    /** Ends the current run early (see {@link LoadEngine#stop(String)}) and skips the rest; idempotent. */
    public void stop(String reason) {
        stop.compareAndSet(null, new Stop(reason));
        LoadEngine e = engine;
        if (e != null) {
            e.stop(stop.get().reason());
        }
    }

    /** Whether {@link #stop} was called. */
    public boolean stopped() {
        return stop.get() != null;
    }

    /**
     * Runs every planned run against {@code baseUrl} until a stop, a silent server or an abort.
     *
     * @param embedded whether the client started that server itself
     * @param live     what --metrics-port serves; null without it
     */
    public Result run(String baseUrl, boolean embedded, LiveMetrics live) {
        RunConfig first = runs.get(0);
        Target target = first.target();
        ServerProbe.Answer preflight = probe(target, baseUrl);
        if (!preflight.reachable()) {
            return Result.failed("cannot reach server at " + baseUrl + ": " + preflight.failure(), 1);
        }
        int maxConnections = 1
                + runs.stream()
                        .mapToInt(c -> c.workload().loadPlan().totalThreads())
                        .max()
                        .orElse(1);
        HttpSettings http =
                new HttpSettings(baseUrl, target.connectTimeoutMillis(), target.readTimeoutMillis(), maxConnections);
        try (RideSenderFactory senders = target.transport().open(http)) {
            Session s = new Session(baseUrl, embedded, senders, live, new AtomicReference<>());
            long runsRequests = runs.stream()
                    .mapToLong(c -> c.workload().loadPlan().totalRequests())
                    .sum();
            // at most half the runs' requests each, warm-up and measured
            RunConfig measured = first.withChecks(first.checks().withBaselineRequests((int)
                    Math.min(first.checks().baselineRequests(), Math.max(1, runsRequests / 2))));
            String key = CalibrationStore.key(
                    embedded ? "embedded" : baseUrl, target.transport().cliName());
            CalibrationStore.Entry stored = stored(first, key);
            // every invocation: a run on a JVM still compiling measures the client's JIT, not the server
            WarmUp.Result warmUp = warmUp(first, s, runsRequests / 2);
            hooks.server(measured, baseUrl, embedded);
            long baselineStart = System.nanoTime();
            Baseline.Result baseline = baseline(measured, s);
            if (s.serverGone().get() != null) {
                return Result.failed("baseline: " + s.serverGone().get() + "; no run started", 1);
            }
            CpuDemand demand = demand(baseline, stored, warmUp);
            long baselineNanos = baseline == null ? 0 : System.nanoTime() - baselineStart;
            hooks.measured(baseline, demand, first.workload().loadPlan().totalRequests(), baselineNanos);
            String late = awaitStart(first.workload());
            if (late != null) {
                return Result.failed(late, UsageException.EXIT_CODE);
            }
            List<RunReport> reports = new ArrayList<>(runs.size());
            // after a give-up the next runs would only wait out the same silence; after an abort the verdict is lost
            for (int i = 0; i < runs.size() && !stopped() && s.serverGone().get() == null; i++) {
                RunReport report = runOne(runs.get(i), s, baseline, demand);
                reports.add(report);
                if (report.abort() != null) {
                    break;
                }
            }
            if (demand != null && !stopped() && s.serverGone().get() == null) {
                demand.toStore(Instant.now()).ifPresent(e -> store.save(key, e));
            }
            return Result.of(reports, runs.size(), stopped());
        }
    }

    /**
     * What every step of one {@link #run} shares, on its thread.
     *
     * @param serverGone why a run or the baseline gave up on a silent server (see {@link SilentServerDetector}); null
     *                   while it answers
     */
    private record Session(
            String baseUrl,
            boolean embedded,
            RideSenderFactory senders,
            LiveMetrics live,
            AtomicReference<String> serverGone) {}

    /** Waits for {@code w}'s --start-at unless stopped; returns why it is too late, or null. */
    private String awaitStart(Workload w) {
        if (w.startAt() == null) {
            return null;
        }
        StartAt startAt = StartAt.onSystemClock(w.startAt());
        String late = startAt.lateness();
        if (late != null) {
            return late;
        }
        hooks.waiting(startAt.remaining());
        try {
            return startAt.await(this::stopped);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(null);
            return null;
        }
    }

    /** The single-thread baseline of {@code c}'s requests, warm-up then measured; null for none. */
    private Baseline.Result baseline(RunConfig c, Session s) {
        if (c.checks().baselineRequests() == 0 || stopped()) {
            return null;
        }
        // N warm-up requests first (a cold JVM's first requests are mostly JIT compilation), then N measured
        SilentServerDetector silentServer =
                new SilentServerDetector(c.target().retryPolicy().giveUpAfterMillis(), null);
        Baseline.Result b = Baseline.run(s.senders(), c.baselineSpec(), this::stopped, silentServer);
        hooks.baseline(b);
        if (silentServer.gaveUp()) {
            s.serverGone().set(silentServer.reason());
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
     * Warms the JVM up ({@link WarmUp}) with at most {@code first}'s threads and {@code
     * maxAttempts} requests; null when there is nothing to learn or nothing ran.
     */
    private WarmUp.Result warmUp(RunConfig first, Session s, long maxAttempts) {
        if (first.checks().baselineRequests() == 0 || maxAttempts < WarmUp.MIN_ATTEMPTS || stopped()) {
            return null;
        }
        // few threads: on a small machine the compiler threads get a fair share of the CPU only beside few others
        int threads =
                Math.min(first.workload().threads(), 2 * Runtime.getRuntime().availableProcessors());
        hooks.warmingUp(threads);
        Workload slices =
                first.workload().withThreads(threads).withShard(Shard.WHOLE).withRamp(null);
        double requestsPerSkier = (double) slices.wholePlan().totalRequests() / slices.skiers();
        WarmUp.Result w = WarmUp.run(
                requests -> runEngine(
                        LoadEngine.builder(
                                        slices.withSkiers((int) Math.max(threads, requests / requestsPerSkier))
                                                .loadPlan(),
                                        s.senders())
                                .ride(slices.ride())
                                .retryPolicy(first.target().retryPolicy())
                                .build(),
                        s),
                maxAttempts,
                () -> stopped() || s.serverGone().get() != null);
        hooks.warmedUp(threads, w);
        return w;
    }

    /** Where the model's D comes from for each run; null without a usable baseline. */
    private static CpuDemand demand(Baseline.Result baseline, CalibrationStore.Entry stored, WarmUp.Result warmUp) {
        if (baseline == null || baseline.successful() == 0 || baseline.stopped()) {
            return null;
        }
        return new CpuDemand(baseline, stored, warmUp);
    }

    /** Runs {@code e} where {@link #stop} reaches it; a server that went silent ends the sweep. */
    private RunResult runEngine(LoadEngine e, Session s) {
        engine = e;
        Stop requested = stop.get();
        if (requested != null) { // a stop that arrived before `engine` was set
            e.stop(requested.reason());
        }
        try {
            return e.run();
        } finally {
            engine = null;
            if (e.gaveUp()) {
                s.serverGone().set(e.gaveUpReason());
            }
        }
    }

    private RunReport runOne(RunConfig c, Session s, Baseline.Result baseline, CpuDemand demand) {
        Workload w = c.workload();
        LoadPlan plan = w.loadPlan();
        int cores = Runtime.getRuntime().availableProcessors();
        Prediction naive = LittlesLaw.predict(plan, baseline);
        Prediction.Network network = demand == null
                ? null
                : demand.network(plan.totalRequests(), baseline.meanLatencyNanos(), cores, CpuScope.of(s.embedded()));
        Prediction model = network == null ? null : LittlesLaw.mva(plan, baseline.meanLatencyNanos(), network);
        hooks.planned(w, plan, naive, model);
        // Read after the baseline: its rides are stored too, and belong to no run.
        ServerProbe.Answer before = probe(c.target(), s.baseUrl());
        AttemptListener listener = hooks.listener(c, plan);
        AbortWatch watch = c.checks().abortOnFail()
                ? new AbortWatch(c.checks().thresholds(), c.checks().abortDelay(), plan.totalRequests(), listener)
                : null;
        LoadEngine e = LoadEngine.builder(plan, s.senders())
                .ride(w.ride())
                .mix(w.mix())
                .retryPolicy(c.target().retryPolicy())
                .seed(w.seed())
                .listener(watch == null ? listener : watch)
                .openModel(w.openModel())
                .ramp(w.ramp())
                .progress(hooks.progress(c), 1_000)
                .build();
        if (s.live() != null) {
            s.live().watch(e.runId(), w.startAt(), w.shard(), e::live);
        }
        if (watch != null) {
            watch.attach(e::live, e::stop);
        }
        long jitBefore = ProcessCpu.jitCompilerNanos();
        long cpuBefore = ProcessCpu.nanos();
        RunResult result = runEngine(e, s);
        long cpuAfter = ProcessCpu.nanos();
        long cpuNanos = cpuBefore < 0 || cpuAfter < 0 ? -1 : cpuAfter - cpuBefore;
        long jitNanos = Math.max(0, ProcessCpu.jitCompilerNanos() - jitBefore);
        if (demand != null) {
            demand.learn("-t " + plan.numThreads(), result.requests().attempts(), cpuNanos, jitNanos);
        }
        ServerProbe.Answer after = probe(c.target(), s.baseUrl());
        String whyNot = before.ridesStored().isEmpty()
                ? "before the run: " + before.failure()
                : after.ridesStored().isEmpty()
                        ? "after the run: " + after.failure()
                        : w.shard().whole() ? null : ShardNotes.serverNotReconciled(w.shard(), before, after);
        RunReport report = RunReport.builder()
                .config(c)
                .plan(plan)
                .serverUrl(s.baseUrl())
                .embeddedServer(s.embedded())
                .baseline(baseline)
                .prediction(naive)
                .model(model)
                .result(result)
                .reconciliation(Reconciliation.of(result, before.ridesStored(), after.ridesStored(), whyNot))
                .processCpuNanos(cpuNanos)
                .jitCpuNanos(jitNanos)
                .cores(cores)
                .abort(watch == null ? null : watch.abort())
                .build();
        report = RunVerdict.judge(report, hooks.metrics(report), hooks.clientName(), w.rate());
        hooks.afterRun(report);
        return report;
    }

    private static ServerProbe.Answer probe(Target t, String baseUrl) {
        return ServerProbe.statistics(
                baseUrl, t.connectTimeoutMillis(), Math.min(t.readTimeoutMillis(), PROBE_READ_TIMEOUT_MS));
    }
}
