package io.upic.liftride.client.engine;

import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

/**
 * Runs a {@link LoadPlan}: one thread per {@link ThreadAssignment}, phases started by their triggers, every
 * request sent through a {@link RetryingSender}, counts kept per thread and merged at the end. This
 * class owns every thread and latch of a run; nothing else in the client creates threads (apart
 * from the JVM shutdown hook in {@code Main}).
 *
 * <p>{@link #run()} may be called once, from one thread; {@link #stop()} is thread-safe and may be
 * called at any time from any thread.
 */
public final class LoadEngine {

    /** Worker stacks: the request path is shallow, and 1,500 threads at the 1 MB default add up. */
    private static final long WORKER_STACK_BYTES = 512 * 1024;

    private final LoadPlan plan;
    private final RideSenderFactory senders;
    private final Worker.RideValues ride;
    private final RetryPolicy retryPolicy;
    private final Long seed;
    private final AttemptListener listener;
    private final ProgressListener progress;
    private final long progressIntervalNanos;
    private final OpenModel openModel;
    private final Pacer.Clock clock;

    private final AtomicBoolean ran = new AtomicBoolean();
    private volatile boolean stopRequested;
    private volatile SilentServerDetector silentServer = SilentServerDetector.never();
    private volatile List<PhaseTracker> trackers = List.of();

    private LoadEngine(Builder b) {
        this.plan = b.plan;
        this.senders = b.senders;
        this.ride = new Worker.RideValues(b.resortId, b.seasonId, b.dayId, b.numLifts);
        this.retryPolicy = b.retryPolicy;
        this.seed = b.seed;
        this.listener = b.listener;
        this.progress = b.progress;
        this.progressIntervalNanos = b.progressIntervalMillis * 1_000_000L;
        this.openModel = b.openModel;
        this.clock = b.clock;
    }

    /** Starts building an engine for {@code plan} that sends through senders from {@code senders}. */
    public static Builder builder(LoadPlan plan, RideSenderFactory senders) {
        return new Builder(plan, senders);
    }

    /**
     * Asks the run to end early: no phase starts after this, and each worker stops after the attempt it
     * is in (no further attempts or retries). {@link #run()} then returns a result with
     * {@code stopped == true} that accounts for every planned request as successful, failed or not
     * sent. Idempotent; may be called before or during {@link #run()}.
     */
    public void stop() {
        stopRequested = true;
        for (PhaseTracker t : trackers) {
            t.releaseTrigger();
        }
    }

    /** Whether {@link #stop()} was called (by a caller, or by the engine giving up on a silent server). */
    public boolean isStopRequested() {
        return stopRequested;
    }

    /**
     * Whether the run stopped itself because the server went silent for the retry policy's
     * {@link RetryPolicy#giveUpAfterMillis()} (see {@link SilentServerDetector}); the result's problems say why.
     */
    public boolean gaveUp() {
        return silentServer.gaveUp();
    }

    /** Why the run gave up on the server, or null if it did not (also the first of the result's problems). */
    public String gaveUpReason() {
        return silentServer.reason();
    }

    /**
     * Runs the plan to the end (or until {@link #stop()}) on the calling thread, which waits for the
     * triggers and joins the workers. Senders and recorders are created before the clock starts.
     * If the calling thread is interrupted, that counts as {@link #stop()}.
     *
     * @throws IllegalStateException when called a second time
     */
    public RunResult run() {
        if (!ran.compareAndSet(false, true)) {
            throw new IllegalStateException("run() may be called once per engine");
        }
        List<PlannedPhase> phases = plan.phases();
        int n = phases.size();

        List<PhaseTracker> phaseTrackers = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            int trigger = k + 1 < n ? phases.get(k + 1).startAfter() : 0;
            phaseTrackers.add(new PhaseTracker(k, phases.get(k).name(), trigger, listener));
        }
        trackers = phaseTrackers;
        if (stopRequested) { // a stop that raced with the line above still releases the triggers
            stop();
        }
        SilentServerDetector silentServer =
                new SilentServerDetector(retryPolicy.giveUpAfterMillis(), System.nanoTime(), this::stop);
        this.silentServer = silentServer;

        // Everything that costs time to set up happens here, before the clock starts.
        String runId = RideKeys.newRunId();
        List<List<Worker>> workers = new ArrayList<>(n);
        List<List<Thread>> threads = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            PlannedPhase phase = phases.get(k);
            List<Worker> ws = new ArrayList<>(phase.threads());
            List<Thread> ts = new ArrayList<>(phase.threads());
            for (ThreadAssignment assignment : phase.assignments()) {
                RideSender rideSender = senders.create();
                AttemptRecorder recorder =
                        Objects.requireNonNull(listener.recorder(assignment), "listener.recorder() returned null");
                RetryingSender retrying = new RetryingSender(
                        rideSender,
                        retryPolicy,
                        recorder,
                        this::isStopRequested,
                        silentServer,
                        new RideKeys(runId, assignment.phaseIndex() + "." + assignment.threadIndex()));
                Worker w = new Worker(
                        assignment,
                        rideSender,
                        retrying,
                        recorder,
                        ride,
                        seed,
                        this::isStopRequested,
                        phaseTrackers.get(k),
                        scheduleFrom(assignment.threadIndex(), phase.threads()),
                        clock);
                ws.add(w);
                Thread t = new Thread(
                        null, w, "liftride-" + phase.name() + "-" + assignment.threadIndex(), WORKER_STACK_BYTES);
                t.setDaemon(true); // a stuck socket must never keep the JVM alive after main returns
                ts.add(t);
            }
            workers.add(ws);
            threads.add(ts);
        }

        AttemptListener.BackgroundTask task = listener.backgroundTask();
        Background background = task == null ? null : new Background(task);
        if (background != null) {
            background.start();
        }

        long startEpochMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        silentServer.startAt(startNanos); // the silence counts from the run's start, not from the set-up above
        listener.onRunStart(plan, startEpochMillis, startNanos);
        Ticker ticker = progress == null ? null : new Ticker(workers, phaseTrackers, startNanos);
        if (ticker != null) {
            ticker.start();
        }

        boolean interrupted = false;
        int phasesStarted = 0;
        for (int k = 0; k < n && !stopRequested; k++) {
            PhaseTracker tracker = phaseTrackers.get(k);
            long phaseEpochMillis = System.currentTimeMillis();
            long phaseNanos = System.nanoTime();
            listener.onPhaseStart(k, phases.get(k).name(), phaseEpochMillis, phaseNanos);
            tracker.starting(threads.get(k).size(), phaseEpochMillis, phaseNanos);
            for (Thread t : threads.get(k)) {
                t.start();
            }
            phasesStarted++;
            if (k + 1 < n) {
                try {
                    tracker.nextPhaseTrigger().await();
                } catch (InterruptedException e) {
                    interrupted = true;
                    stop();
                }
            }
        }
        for (int k = 0; k < phasesStarted; k++) {
            for (Thread t : threads.get(k)) {
                interrupted |= joinUninterruptibly(t);
            }
        }
        long endNanos = System.nanoTime();
        if (ticker != null) {
            interrupted |= ticker.finish();
        }
        if (background != null) {
            interrupted |= background.finish();
        }

        RunResult result = merge(
                phases,
                workers,
                phaseTrackers,
                startEpochMillis,
                startNanos,
                endNanos - startNanos,
                background == null ? null : background.failure);
        if (progress != null) {
            try {
                progress.onProgress(new Progress(
                        phases.get(Math.max(0, phasesStarted - 1)).name(),
                        phasesStarted,
                        n,
                        result.successful() + result.failed(),
                        result.planned(),
                        result.failed(),
                        0,
                        endNanos - startNanos,
                        true,
                        openModel == null ? Double.NaN : 0));
            } catch (RuntimeException e) {
                // a broken display must not cost the listener its onRunEnd (client-part2's summary), as in the Ticker
            }
        }
        listener.onRunEnd(result);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    /** The open model's schedule of one worker from the time it starts, or null in the closed model. */
    private LongFunction<SendSchedule> scheduleFrom(int threadIndex, int phaseThreads) {
        if (openModel == null) {
            return null;
        }
        long interval = openModel.intervalNanos();
        return startNanos -> SendSchedule.forThread(startNanos, interval, threadIndex, phaseThreads);
    }

    private RunResult merge(
            List<PlannedPhase> phases,
            List<List<Worker>> workers,
            List<PhaseTracker> phaseTrackers,
            long startEpochMillis,
            long startNanos,
            long wallNanos,
            Throwable backgroundFailure) {
        List<PhaseResult> results = new ArrayList<>(phases.size());
        Map<Integer, Long> allCauses = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        String gaveUpReason = silentServer.reason();
        if (gaveUpReason != null) {
            problems.add(gaveUpReason);
        }
        if (backgroundFailure != null) {
            problems.add("listener background task failed: " + backgroundFailure);
        }
        long planned = 0, successful = 0, failed = 0, retries = 0, attempts = 0, latency = 0;
        for (int k = 0; k < phases.size(); k++) {
            PlannedPhase phase = phases.get(k);
            PhaseTracker t = phaseTrackers.get(k);
            Map<Integer, Long> causes = new TreeMap<>();
            long s = 0, f = 0, r = 0, a = 0, l = 0;
            ScheduleLag lag = new ScheduleLag();
            for (Worker w : workers.get(k)) {
                lag.add(w.lag());
                s += w.successful();
                f += w.failed();
                r += w.retries();
                a += w.attempts();
                l += w.latencyNanosSum();
                w.addFailuresTo(causes);
                w.addProblemsTo(problems);
            }
            if (t.listenerError() != null) {
                problems.add("listener.onPhaseEnd failed for " + phase.name() + ": " + t.listenerError());
            }
            long p = phase.requests();
            results.add(PhaseResult.builder()
                    .index(k)
                    .name(phase.name())
                    .threads(phase.threads())
                    .planned(p)
                    .successful(s)
                    .failed(f)
                    .notSent(p - s - f)
                    .retries(r)
                    .attempts(a)
                    .latencyNanosSum(l)
                    .failuresByCause(causes)
                    .started(t.started())
                    .startEpochMillis(t.startEpochMillis())
                    .startNanos(t.startNanos())
                    .endEpochMillis(t.endEpochMillis())
                    .endNanos(t.endNanos())
                    .offeredPerSecond(openModel == null ? null : openModel.offeredPerSecond(phase.threads()))
                    .scheduleLag(openModel == null ? null : lag.snapshot())
                    .build());
            causes.forEach((code, count) -> allCauses.merge(code, count, Long::sum));
            planned += p;
            successful += s;
            failed += f;
            retries += r;
            attempts += a;
            latency += l;
        }
        return RunResult.builder()
                .planName(plan.planName())
                .numThreads(plan.numThreads())
                .phases(results)
                .planned(planned)
                .successful(successful)
                .failed(failed)
                .notSent(planned - successful - failed)
                .retries(retries)
                .attempts(attempts)
                .latencyNanosSum(latency)
                .failuresByCause(allCauses)
                .startEpochMillis(startEpochMillis)
                .startNanos(startNanos)
                .wallNanos(wallNanos)
                .stopped(stopRequested)
                .problems(problems)
                .build();
    }

    /**
     * Joins {@code t}, retrying through interrupts; returns whether one happened (the stop is already requested then).
     */
    private boolean joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
                stop();
            }
        }
    }

    /** The engine-owned thread running the listener's {@link AttemptListener.BackgroundTask}. */
    private final class Background extends Thread {
        private final AttemptListener.BackgroundTask task;
        private volatile boolean workersDone;
        private volatile Throwable failure;

        private Background(AttemptListener.BackgroundTask task) {
            super("liftride-listener");
            setDaemon(true);
            this.task = task;
        }

        @Override
        public void run() {
            try {
                task.run(() -> workersDone);
            } catch (Throwable t) {
                failure = t;
            }
        }

        /** Tells the task the workers are done and waits for it to return. */
        boolean finish() {
            workersDone = true;
            LockSupport.unpark(this);
            return joinUninterruptibly(this);
        }
    }

    /** The progress thread: sums the workers' volatile counters once per interval. */
    private final class Ticker extends Thread {
        private final List<List<Worker>> workers;
        private final List<PhaseTracker> phaseTrackers;
        private final long startNanos;
        private volatile boolean finished;

        Ticker(List<List<Worker>> workers, List<PhaseTracker> phaseTrackers, long startNanos) {
            super("liftride-progress");
            setDaemon(true);
            this.workers = workers;
            this.phaseTrackers = phaseTrackers;
            this.startNanos = startNanos;
        }

        @Override
        public void run() {
            long lastDone = 0;
            long lastNanos = startNanos;
            long next = startNanos + progressIntervalNanos;
            while (!finished) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                    continue; // re-check finished and the deadline (park may return early)
                }
                next += progressIntervalNanos;
                long now = System.nanoTime();
                long done = 0, failed = 0;
                int started = 0;
                for (int k = 0; k < phaseTrackers.size(); k++) {
                    if (!phaseTrackers.get(k).started()) {
                        break;
                    }
                    started = k + 1;
                    for (Worker w : workers.get(k)) {
                        done += w.done();
                        failed += w.failedSoFar();
                    }
                }
                double rate = now > lastNanos ? (done - lastDone) * 1e9 / (now - lastNanos) : 0;
                lastDone = done;
                lastNanos = now;
                try {
                    progress.onProgress(new Progress(
                            plan.phases().get(Math.max(0, started - 1)).name(),
                            started,
                            plan.phases().size(),
                            done,
                            plan.totalRequests(),
                            failed,
                            rate,
                            now - startNanos,
                            false,
                            offeredNow(started)));
                } catch (RuntimeException e) {
                    return; // a broken display must not affect the run
                }
            }
        }

        /** Open model: what the threads running now are scheduled to send per second; NaN in the closed model. */
        private double offeredNow(int phasesStarted) {
            if (openModel == null) {
                return Double.NaN;
            }
            int running = 0;
            for (int k = 0; k < phasesStarted; k++) {
                running += phaseTrackers.get(k).running();
            }
            return openModel.offeredPerSecond(running);
        }

        /** Stops the ticker and waits for it, so the final snapshot never overlaps a periodic one. */
        boolean finish() {
            finished = true;
            LockSupport.unpark(this);
            return joinUninterruptibly(this);
        }
    }

    /**
     * Configures a {@link LoadEngine}. Not thread-safe. Defaults: the flags' resort, season, day and lifts
     * ({@link RunOptions}), {@link RetryPolicy#DEFAULT}, no seed (ThreadLocalRandom), no listener, no progress.
     */
    public static final class Builder {
        private final LoadPlan plan;
        private final RideSenderFactory senders;
        private int resortId = RunOptions.RESORT.defaultValue();
        private int seasonId = RunOptions.SEASON.defaultValue();
        private int dayId = RunOptions.DAY.defaultValue();
        private int numLifts = RunOptions.LIFTS.defaultValue();
        private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
        private Long seed;
        private AttemptListener listener = AttemptListener.NONE;
        private ProgressListener progress;
        private long progressIntervalMillis = 1_000;
        private OpenModel openModel;
        private Pacer.Clock clock = Pacer.Clock.SYSTEM;

        private Builder(LoadPlan plan, RideSenderFactory senders) {
            this.plan = Objects.requireNonNull(plan, "plan");
            this.senders = Objects.requireNonNull(senders, "senders");
        }

        /** The path values every ride carries and the number of lifts (liftID is drawn from 1..numLifts). */
        public Builder ride(int resortId, int seasonId, int dayId, int numLifts) {
            if (resortId < 1) {
                throw new IllegalArgumentException("resortId < 1: " + resortId);
            }
            if (seasonId < 0) {
                throw new IllegalArgumentException("seasonId < 0: " + seasonId);
            }
            if (dayId < 1) {
                throw new IllegalArgumentException("dayId < 1: " + dayId);
            }
            if (numLifts < 1) {
                throw new IllegalArgumentException("numLifts < 1: " + numLifts);
            }
            this.resortId = resortId;
            this.seasonId = seasonId;
            this.dayId = dayId;
            this.numLifts = numLifts;
            return this;
        }

        public Builder retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
            return this;
        }

        /**
         * A seed makes every thread's ride data reproducible (per-thread SplittableRandom); null: ThreadLocalRandom.
         */
        public Builder seed(Long seed) {
            this.seed = seed;
            return this;
        }

        public Builder listener(AttemptListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** Progress snapshots every {@code intervalMillis} (null listener: none). */
        public Builder progress(ProgressListener progress, long intervalMillis) {
            if (intervalMillis < 1) {
                throw new IllegalArgumentException("intervalMillis < 1: " + intervalMillis);
            }
            this.progress = progress;
            this.progressIntervalMillis = intervalMillis;
            return this;
        }

        /** The open model: every worker sends on a fixed schedule (see {@link OpenModel}); null: the closed model. */
        public Builder openModel(OpenModel openModel) {
            if (openModel != null && openModel.peakThreads() != plan.numThreads()) {
                throw new IllegalArgumentException(
                        "openModel.peakThreads != plan threads " + plan.numThreads() + ": " + openModel.peakThreads());
            }
            this.openModel = openModel;
            return this;
        }

        /** The clock the open model paces by (tests pass a fake). */
        Builder clock(Pacer.Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public LoadEngine build() {
            return new LoadEngine(this);
        }
    }
}
