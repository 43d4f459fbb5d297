package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.Ramp;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

/**
 * Runs a {@link LoadPlan}: one thread per {@link ThreadAssignment}, phases started by their triggers, every
 * request sent through a {@link RetryingSender}, counts kept per thread and merged at the end. {@link #run()}
 * may be called once, from one thread; {@link #stop()} and {@link #live()} are thread-safe.
 */
public final class LoadEngine {

    private final LoadPlan plan;
    private final RideSenderFactory senders;
    private final RideValues ride;
    private final Mix mix;
    private final RetryPolicy retryPolicy;
    private final Long seed;
    private final AttemptListener listener;
    private final ProgressListener progress;
    private final long progressIntervalNanos;
    private final OpenModel openModel;
    private final Ramp ramp;
    private final Pacer.Clock clock;
    /** {@code System.nanoTime()} at the run's start: the origin of a ramp's schedule; set before any worker runs. */
    private volatile long startNanos;

    private final AtomicBoolean ran = new AtomicBoolean();
    private volatile boolean stopRequested;
    /** Why a caller stopped the run ({@link #stop(String)}), or null. */
    private volatile String stopReason;

    private volatile SilentServerDetector silentServer = SilentServerDetector.never();
    private volatile List<PhaseTracker> trackers = List.of();
    /** The run's crews once created, for {@link #live()}. */
    private volatile List<Crew> liveCrews = List.of();
    /** The prefix of the run's Idempotency-Keys and its live metrics' {@code run_id}. */
    private final String runId = RideKeys.newRunId();

    private LoadEngine(Builder b) {
        this.plan = b.plan;
        this.senders = b.senders;
        this.ride = b.ride;
        this.mix = b.mix;
        this.retryPolicy = b.retryPolicy;
        this.seed = b.seed;
        this.listener = b.listener;
        this.progress = b.progress;
        this.progressIntervalNanos = b.progressIntervalMillis * 1_000_000L;
        this.openModel = b.openModel;
        this.ramp = b.ramp;
        this.clock = b.clock;
    }

    /** Starts building an engine for {@code plan} that sends through senders from {@code senders}. */
    public static Builder builder(LoadPlan plan, RideSenderFactory senders) {
        return new Builder(plan, senders);
    }

    /** Ends the run early after each worker's current attempt; every request is still accounted. Idempotent. */
    public void stop() {
        stop(null);
    }

    /** {@link #stop()}, with {@code reason} (if not null) as the result's first problem; the first reason wins. */
    public void stop(String reason) {
        if (reason != null && stopReason == null) {
            stopReason = reason;
        }
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
     * Whether the run stopped itself because attempts only failed for the retry policy's
     * {@link RetryPolicy#giveUpAfterMillis()} (see {@link SilentServerDetector}); the result's problems say why.
     */
    public boolean gaveUp() {
        return silentServer.gaveUp();
    }

    /** Why the run gave up on the server, or null if it did not (also the first of the result's problems). */
    public String gaveUpReason() {
        return silentServer.reason();
    }

    /** 16 hex digits naming this run: the prefix of its rides' Idempotency-Keys. */
    public String runId() {
        return runId;
    }

    /** Every phase's figures so far, per operation: a live view for any thread. */
    public List<LiveFigures> live() {
        List<Crew> crews = liveCrews;
        List<LiveFigures> figures = new ArrayList<>(crews.size());
        for (Crew crew : crews) {
            figures.addAll(crew.live());
        }
        return figures;
    }

    /**
     * Runs the plan to the end (or until {@link #stop()}) on the calling thread; an interrupt counts as a stop.
     *
     * @throws IllegalStateException when called a second time
     */
    public RunResult run() {
        if (!ran.compareAndSet(false, true)) {
            throw new IllegalStateException("run() may be called once per engine");
        }
        List<Crew> crews = crews(); // everything that costs time to set up happens here, before the clock starts
        liveCrews = List.copyOf(crews);
        AttemptListener.BackgroundTask task = listener.backgroundTask();
        Background background = task == null ? null : new Background(task);
        if (background != null) {
            background.thread.start();
        }
        long startEpochMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        this.startNanos = startNanos;
        listener.onRunStart(plan, startEpochMillis, startNanos);
        ProgressTicker ticker = progress == null
                ? null
                : new ProgressTicker(progress, progressIntervalNanos, plan, crews, openModel, ramp, startNanos);
        if (ticker != null) {
            ticker.start();
        }
        boolean interrupted = false;
        int started = 0;
        for (; started < crews.size() && !stopRequested; started++) {
            crews.get(started).start(listener);
            interrupted |= started + 1 < crews.size() && awaitTrigger(crews.get(started));
        }
        for (Crew crew : crews.subList(0, started)) {
            interrupted |= crew.join(this::stop);
        }
        long endNanos = System.nanoTime();
        interrupted |= ticker != null && ticker.finish(endNanos, this::stop);
        interrupted |= background != null && background.finish();
        RunResult result = result(crews, startEpochMillis, startNanos, endNanos - startNanos, background);
        listener.onRunEnd(result);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    /** Waits until {@code crew}'s phase triggers the next one (or a stop); returns whether it was interrupted. */
    private boolean awaitTrigger(Crew crew) {
        try {
            crew.tracker().nextPhaseTrigger().await();
            return false;
        } catch (InterruptedException e) {
            stop();
            return true;
        }
    }

    /** One crew per phase, its senders, recorders, workers and threads created (none started). */
    private List<Crew> crews() {
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
        silentServer = new SilentServerDetector(retryPolicy.giveUpAfterMillis(), this::stop);
        Worker.Common common = new Worker.Common(ride, mix, seed, this::isStopRequested, clock);
        List<Operation> operations = mix == null
                ? List.of(Operation.WRITE_NEW_LIFT_RIDE)
                : List.copyOf(mix.weights().keySet());
        List<Crew> crews = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            PlannedPhase phase = phases.get(k);
            List<Worker> workers = new ArrayList<>(phase.threads());
            for (ThreadAssignment assignment : phase.assignments()) {
                workers.add(worker(assignment, phase.wholeThreads(), phaseTrackers.get(k), common));
            }
            crews.add(new Crew(phase, phaseTrackers.get(k), workers, operations));
        }
        return crews;
    }

    private Worker worker(ThreadAssignment assignment, int phaseThreads, PhaseTracker tracker, Worker.Common common) {
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
        return new Worker(
                assignment, rideSender, retrying, recorder, tracker, scheduleFrom(assignment, phaseThreads), common);
    }

    /**
     * The open model's schedule of one worker from the time it starts, or null in the closed model; {@code
     * phaseThreads} counts every shard's threads of the phase, so that N shards keep the whole plan's schedule.
     */
    private LongFunction<Timetable> scheduleFrom(ThreadAssignment assignment, int phaseThreads) {
        if (ramp != null) {
            Ramp.StageTimes times = ramp.times(assignment.phaseIndex());
            return workerStart -> new RampSchedule(times, assignment.threadIndex(), phaseThreads, startNanos);
        }
        if (openModel == null) {
            return null;
        }
        long interval = openModel.intervalNanos();
        return workerStart -> SendSchedule.forThread(workerStart, interval, assignment.threadIndex(), phaseThreads);
    }

    /** The rate {@code phase}'s schedule offers: a ramp stage's requests over its duration; null when closed. */
    private Double offeredPerSecond(PlannedPhase phase) {
        if (ramp != null) {
            return phase.requests() * 1e9 / ramp.stages().get(phase.index()).durationNanos();
        }
        return openModel == null ? null : openModel.offeredPerSecond(phase.threads());
    }

    private RunResult result(
            List<Crew> crews, long startEpochMillis, long startNanos, long wallNanos, Background background) {
        List<String> problems = new ArrayList<>();
        if (stopReason != null) {
            problems.add(stopReason);
        }
        if (silentServer.reason() != null) {
            problems.add(silentServer.reason());
        }
        Throwable backgroundFailure = background == null ? null : Crew.crashOf(background.task);
        if (backgroundFailure != null) {
            problems.add("listener background task failed: " + backgroundFailure);
        }
        List<PhaseResult> phases = new ArrayList<>(crews.size());
        Map<Operation, OperationStats> operations = new EnumMap<>(Operation.class);
        for (Crew crew : crews) {
            PhaseResult p = crew.result(offeredPerSecond(plan.phases().get(phases.size())), problems);
            phases.add(ramp == null || !p.started() ? p : scheduledStart(p, startEpochMillis, startNanos));
            crew.addOperationsTo(operations);
        }
        return RunResult.of(plan, phases, startEpochMillis, startNanos, wallNanos, stopRequested, problems).toBuilder()
                .operations(operations)
                .build();
    }

    /** A ramp stage's account from its scheduled start, so a late notice does not inflate its rate. */
    private PhaseResult scheduledStart(PhaseResult p, long startEpochMillis, long startNanos) {
        long offset = ramp.startNanos(p.index());
        return p.toBuilder()
                .startNanos(startNanos + offset)
                .startEpochMillis(startEpochMillis + offset / 1_000_000)
                .build();
    }

    /** The thread running the listener's {@link AttemptListener.BackgroundTask}; keeps what it threw. */
    private final class Background {
        private final FutureTask<Void> task;
        private final Thread thread;
        private volatile boolean workersDone;

        private Background(AttemptListener.BackgroundTask work) {
            task = new FutureTask<>(() -> {
                work.run(() -> workersDone);
                return null;
            });
            thread = new Thread(task, "liftride-listener");
            thread.setDaemon(true);
        }

        /** Tells the task the workers are done and waits for it to return. */
        boolean finish() {
            workersDone = true;
            LockSupport.unpark(thread);
            return Crew.joinUninterruptibly(thread, LoadEngine.this::stop);
        }
    }

    /**
     * Configures a {@link LoadEngine}. Not thread-safe. Defaults: {@link RideValues#DEFAULT},
     * {@link RetryPolicy#DEFAULT}, no seed (ThreadLocalRandom), no listener, no progress.
     */
    public static final class Builder {
        private final LoadPlan plan;
        private final RideSenderFactory senders;
        private RideValues ride = RideValues.DEFAULT;
        private Mix mix;
        private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
        private Long seed;
        private AttemptListener listener = AttemptListener.NONE;
        private ProgressListener progress;
        private long progressIntervalMillis = 1_000;
        private OpenModel openModel;
        private Ramp ramp;
        private Pacer.Clock clock = Pacer.Clock.SYSTEM;

        private Builder(LoadPlan plan, RideSenderFactory senders) {
            this.plan = Objects.requireNonNull(plan, "plan");
            this.senders = Objects.requireNonNull(senders, "senders");
        }

        /** The path values every ride carries and the number of lifts (liftID is drawn from 1..numLifts). */
        /** The operations to send ({@code --mix}); null (the default) for rides only. */
        public Builder mix(Mix mix) {
            this.mix = mix;
            return this;
        }

        public Builder ride(RideValues ride) {
            this.ride = Objects.requireNonNull(ride, "ride");
            return this;
        }

        public Builder retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
            return this;
        }

        /** A seed makes every thread's ride data reproducible; null: ThreadLocalRandom. */
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

        /** A ramping arrival rate whose stages are the plan's phases; null: none. Excludes {@link #openModel}. */
        public Builder ramp(Ramp ramp) {
            if (ramp != null && ramp.stages().size() != plan.phases().size()) {
                throw new IllegalArgumentException("ramp stages != plan phases "
                        + plan.phases().size() + ": " + ramp.stages().size());
            }
            this.ramp = ramp;
            return this;
        }

        /** The clock the open model paces by (tests pass a fake). */
        Builder clock(Pacer.Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public LoadEngine build() {
            if (ramp != null && openModel != null) {
                throw new IllegalStateException("a ramp and a constant rate both set");
            }
            return new LoadEngine(this);
        }
    }
}
