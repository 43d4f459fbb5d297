package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.jvm.ProcessCpu;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.Phase;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import lombok.Builder;

/**
 * The load calibration that follows the single-thread {@link Baseline}: a short closed-loop run at a moderate
 * thread count that first warms the JVM and then measures D, the CPU time per request under load, from this
 * process's CPU time over the requests completed: the client's CPU, and the embedded server's when it runs in this
 * JVM, GC included, less the JIT compiler threads' CPU time in the same window (a young JVM's one-off cost, not a
 * request's: through a slow network a few hundred requests in 2 s otherwise carried 450 us each of it, against
 * 70-90 us in the runs).
 *
 * <p>It runs through the same {@link LoadEngine} as a run, observed by the same kind of {@link AttemptListener}
 * (client-part2's recorders, histograms and CSV writer, writing into nothing): a calibration that sent through its
 * own loop left the run's worker loop and recorders to be compiled, and the profiles it had given the JIT to be
 * undone, in the first run, whose D then rose from 44.6 to 63 us. The rides are real (stored by the server, like the
 * baseline's), random over all skiers and the whole day; read the server's counters after this. Static and
 * thread-safe.
 */
public final class Calibration {

    /** The moderate thread count: enough to batch wake-ups as a loaded run does, far below any saturation. */
    public static final int THREADS = 16;

    /**
     * The delay part's threads: after the 16-thread part, a part at a few threads, below saturation, measures the
     * delay under load (see the report's {@code LittlesLaw.loadDelayNanos}), as a run's 8-thread phases meet it.
     */
    public static final int DELAY_THREADS = 8;

    /** The longest warm-up slice, and the longest measured part. */
    public static final long MAX_PART_NANOS = 2_000_000_000L;

    /** The shortest warm-up slice, and the shortest measured part. */
    public static final long MIN_PART_NANOS = 200_000_000L;

    /**
     * The longest warm-up: on a quiet 2-core machine C2 was still compiling 2 s into a run, and D measured then was
     * 80 us a request against 48 us once it had settled (a 40% miss of the model, blamed on D).
     */
    public static final long MAX_WARMUP_NANOS = 10_000_000_000L;

    /**
     * The longest warm-up in slices: a short test baseline keeps a short calibration (4 s at the shortest slice),
     * while a default baseline's slices (0.5 s here since the SDK got faster) still reach {@link #MAX_WARMUP_NANOS}:
     * at 12 they stopped at 6.6 s with the JIT compiler threads at 13% of the CPU, and the first run missed by 29%.
     */
    public static final int MAX_WARMUP_SLICES = 20;

    /** The calibration's phase name (its worker threads are named after it). */
    public static final String PHASE = "calibration";

    /** A warm-up slice is settled when the JIT compiler threads used at most this share of the process's CPU... */
    static final double SETTLED_JIT_SHARE = 0.05;

    /** ...and its D is within this of the slice before. */
    static final double SETTLED_D_CHANGE = 0.10;

    /**
     * A warm-up slice is also settled when its requests kept at most this share of the machine's cores busy (the
     * JIT's time left out): then the CPU is not what limits the load (a server tens of milliseconds away), what the
     * JIT has left to compile and D's noise move the model by a fraction of a percent, and the JIT, which compiles a
     * method after so many calls, would take minutes at such a rate. Through a 40 ms round trip the 16 threads kept
     * 3% of 2 cores busy, with the JIT still at a third of that after 10 s: without this the warm-up ran to its cap
     * in both parts, 20 s of the invocation, and printed "a busy machine" on a quiet one.
     */
    static final double IDLE_CORES_SHARE = 0.05;

    /** How often the calibration looks at a stop request and at the end of its slice. */
    static final long TICK_MILLIS = 50;

    private Calibration() {}

    /**
     * What the calibration measured in its measured part.
     *
     * @param threads       threads that sent
     * @param warmupNanos   how long the unmeasured warm-up ran
     * @param wallNanos     the measured part's duration
     * @param requests      requests completed in the measured part (201 or not)
     * @param failed        of which without a 201
     * @param cpuNanos      this process's CPU time during the measured part less the JIT compiler's time then, or -1
     *                      if unknown
     * @param jitNanos      the JIT compiler threads' CPU time during the measured part (left out of cpuNanos), 0 if
     *                      unknown
     * @param stopped       whether a stop or a give-up cut it short
     * @param totalRequests every request it completed, warm-up and the ones in flight at its end included (the
     *                      server stores each that got a 201)
     * @param gaveUpReason  why it gave up on a silent server (see {@link SilentServerDetector}), or null
     * @param warmupJitShare the JIT compiler threads' share of the process's CPU in the last warm-up slice, NaN if
     *                      unknown: above {@link #SETTLED_JIT_SHARE} the warm-up ended at its limit with the JIT still
     *                      compiling (a busy machine), and the first run will compile the rest, unless the CPU was idle
     * @param warmupCoresShare the share of the machine's cores the requests kept busy in the last warm-up slice (the
     *                      JIT's time left out), NaN if unknown: at most {@link #IDLE_CORES_SHARE}, the warm-up ended
     *                      there whatever the JIT was doing (see {@link #cpuIdle})
     */
    @Builder(toBuilder = true)
    public record Result(
            int threads,
            long warmupNanos,
            long wallNanos,
            long requests,
            long failed,
            long cpuNanos,
            long jitNanos,
            boolean stopped,
            long totalRequests,
            String gaveUpReason,
            double warmupJitShare,
            double warmupCoresShare) {

        /** D under load: process CPU nanoseconds per completed request, or NaN if unknown or nothing completed. */
        public double cpuNanosPerRequest() {
            return cpuNanos < 0 || requests == 0 ? Double.NaN : (double) cpuNanos / requests;
        }

        /** Completed requests per second of the measured part. */
        public double throughputPerSecond() {
            return wallNanos <= 0 ? Double.NaN : requests * 1e9 / wallNanos;
        }

        /**
         * A thread's time per request in the measured part, N / X (Little's law for a closed loop without think
         * time: about the mean latency), or NaN without a request.
         */
        public double cycleNanos() {
            return requests == 0 ? Double.NaN : (double) threads * wallNanos / requests;
        }

        /**
         * This process's busy cores in the measured part, JIT included ((cpuNanos + jitNanos) / wallNanos), or NaN if
         * unknown: fewer than the machine's cores while the model assumes them all means the machine was shared.
         */
        public double busyCores() {
            return cpuNanos < 0 || wallNanos <= 0 ? Double.NaN : (double) (cpuNanos + jitNanos) / wallNanos;
        }

        /** Whether the JIT had settled when the warm-up ended (see {@code warmupJitShare}). */
        public boolean jitSettled() {
            return warmupJitShare <= SETTLED_JIT_SHARE;
        }

        /** Whether the warm-up ended because the load kept the cores idle (see {@link #IDLE_CORES_SHARE}). */
        public boolean cpuIdle() {
            return warmupCoresShare <= IDLE_CORES_SHARE;
        }

        /** The whole cost: warm-up plus measured part. */
        public long costNanos() {
            return warmupNanos + wallNanos;
        }

        /**
         * Whether D can be used: measured, not cut short, some requests done, and some CPU left once the JIT's is
         * taken out (in a short part on a busy machine the JIT compiler threads' time, read at 10 ms resolution, can
         * cover the whole process's: a D of 0 is no measurement).
         */
        public boolean usable() {
            return !stopped && requests > 0 && cpuNanos > 0;
        }
    }

    /**
     * How long each part lasts after a baseline whose measured part took {@code baselineWallNanos}: as long, within
     * [{@link #MIN_PART_NANOS}, {@link #MAX_PART_NANOS}], so that a short test baseline keeps a short calibration.
     */
    public static long partNanos(long baselineWallNanos) {
        return Math.max(MIN_PART_NANOS, Math.min(MAX_PART_NANOS, baselineWallNanos));
    }

    /**
     * The calibration's plan: one phase of {@code threads} threads, each drawing rides over all {@code skiers} and
     * the whole day, with no end of its own (the calibration stops it).
     */
    public static LoadPlan plan(int threads, int skiers) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads < 1: " + threads);
        }
        if (skiers < 1) {
            throw new IllegalArgumentException("skiers < 1: " + skiers);
        }
        // each thread draws from a slice of the skiers of its own, as in a run's phases: with every thread drawing
        // from all 20,000, the calibration ran 55,000-61,000 req/s on most JVMs where the runs ran 48,000-52,000,
        // and its D came out 15-20% low (measured; what in the client or the store makes the difference is not)
        List<ThreadAssignment> assignments = new ArrayList<>(threads);
        int base = skiers / threads;
        int extra = skiers % threads;
        int from = 1;
        for (int k = 0; k < threads; k++) {
            int size = base + (k < extra ? 1 : 0);
            int lo = size == 0 ? 1 + k % skiers : from; // fewer skiers than threads: one skier each, shared
            int hi = size == 0 ? lo : from + size - 1;
            assignments.add(new ThreadAssignment(0, PHASE, k, lo, hi, Integer.MAX_VALUE, 1, PhasePlan.DAY_MINUTES));
            from += size;
        }
        Phase phase = new Phase(PHASE, 1, 1, 1, PhasePlan.DAY_MINUTES, 0);
        return new LoadPlan(PHASE, threads, skiers, 0, List.of(new PlannedPhase(0, phase, threads, 0, assignments)));
    }

    /**
     * Runs {@code plan} (see {@link #plan}) through a {@link LoadEngine} observed by {@code listener}, each thread
     * with its own sender of {@code senders}, with the spec's ride values and retry policy (and a seed apart from the
     * run's): unmeasured in slices of {@code partNanos} until the JVM has settled (the JIT compiler threads idle and
     * D steady from one slice to the next, or the load keeping the cores idle; at most {@link #MAX_WARMUP_SLICES}
     * slices and {@code maxWarmupNanos}: 0 warms one slice), then {@code partNanos} measured, and stops it. Gives up on a silent
     * server as a run does (the result then says why).
     *
     * @param stopRequested  checked every {@link #TICK_MILLIS} ms; true ends the calibration early (then it is
     *                       stopped)
     * @param controlRequest sent at the end of every warm-up slice that did not settle, on the progress thread: the
     *                       request a run sends before its clock ({@code GET /statistics}), which takes branches the
     *                       compiled POST path never took; sent only after the clock, it threw that code away and
     *                       the first run compiled it again (1.2 s of JIT CPU, a 25% miss); sent here, the warm-up
     *                       settles only once it no longer does
     */
    public static Result run(
            RideSenderFactory senders,
            Baseline.Spec spec,
            LoadPlan plan,
            long partNanos,
            long maxWarmupNanos,
            BooleanSupplier stopRequested,
            AttemptListener listener,
            Runnable controlRequest) {
        if (partNanos <= 0) {
            throw new IllegalArgumentException("partNanos <= 0: " + partNanos);
        }
        Long seed = spec.seed();
        Controller controller = new Controller(
                partNanos,
                Math.min(maxWarmupNanos, MAX_WARMUP_SLICES * partNanos),
                stopRequested,
                Objects.requireNonNull(controlRequest, "controlRequest"),
                plan.numThreads());
        LoadEngine engine = LoadEngine.builder(plan, senders)
                .ride(spec.ride())
                .retryPolicy(spec.retryPolicy())
                .seed(seed == null ? null : ~seed - 1)
                .listener(Objects.requireNonNull(listener, "listener"))
                .progress(controller, Math.max(1, Math.min(TICK_MILLIS, partNanos / 4_000_000)))
                .build();
        controller.engine = engine;
        RunResult r = engine.run();
        String gaveUp = engine.gaveUpReason();
        return controller.result(r.requests().finished(), gaveUp != null ? gaveUp : controller.failure);
    }

    /**
     * Sends nothing itself: on the engine's progress thread, every tick, it ends a slice when its time has come,
     * decides whether the warm-up has settled, and stops the engine after the measured part (or on a stop request).
     * Its fields are written on the progress thread and read by the caller after the engine has joined that thread.
     */
    private static final class Controller implements ProgressListener {
        private final long partNanos;
        private final long maxWarmupNanos;
        private final BooleanSupplier stopRequested;
        private final Runnable controlRequest;
        private final int threads;
        private final int cores = Runtime.getRuntime().availableProcessors();
        private LoadEngine engine;

        private long startNanos = Long.MIN_VALUE;
        private long sliceEndNanos;
        private Snapshot previous;
        private double previousD = Double.NaN;
        private Snapshot before;
        private Snapshot after;
        private double lastJitShare = Double.NaN;
        private double lastCoresShare = Double.NaN;
        private boolean stopped;
        private String failure;

        Controller(
                long partNanos,
                long maxWarmupNanos,
                BooleanSupplier stopRequested,
                Runnable controlRequest,
                int threads) {
            this.partNanos = partNanos;
            this.maxWarmupNanos = maxWarmupNanos;
            this.stopRequested = stopRequested;
            this.controlRequest = controlRequest;
            this.threads = threads;
        }

        /**
         * Ends the calibration on anything thrown here (a control request, the CPU read): its threads send until
         * this stops them, and the ticker calls no listener again after one threw, so an exception let through
         * would leave them sending for ever.
         */
        @Override
        public void onProgress(Progress p) {
            try {
                tick(p);
            } catch (RuntimeException e) {
                failure = "calibration failed: " + e;
                stopped = true;
                engine.stop();
            }
        }

        private void tick(Progress p) {
            if (p.finished() || after != null) {
                return;
            }
            long now = System.nanoTime();
            if (startNanos == Long.MIN_VALUE) {
                startNanos = now - p.elapsedNanos();
                previous = Snapshot.at(now, p);
                sliceEndNanos = startNanos + partNanos;
            }
            if (stopRequested.getAsBoolean()) {
                stopped = true;
                engine.stop();
                return;
            }
            if (now < sliceEndNanos) {
                return;
            }
            Snapshot s = Snapshot.at(now, p);
            if (before != null) {
                after = s;
                engine.stop();
                return;
            }
            double d = s.cpuNanosPerRequestSince(previous);
            lastJitShare = s.jitShareSince(previous);
            lastCoresShare = s.busyCoresSince(previous) / cores;
            boolean settled = lastCoresShare <= IDLE_CORES_SHARE
                    || lastJitShare <= SETTLED_JIT_SHARE && Math.abs(d - previousD) <= SETTLED_D_CHANGE * previousD;
            if (settled || Double.isNaN(d) || now - startNanos >= maxWarmupNanos) {
                before = s;
            } else {
                controlRequest.run(); // its own CPU, one GET, falls into the next slice
                previous = s;
                previousD = d;
            }
            sliceEndNanos = now + partNanos;
        }

        Result result(long totalRequests, String gaveUpReason) {
            boolean measured = before != null && after != null;
            Snapshot b = measured ? before : Snapshot.NONE;
            Snapshot a = measured ? after : Snapshot.NONE;
            long cpu = a.requestCpuNanosSince(b);
            return new Result(
                    threads,
                    before == null || startNanos == Long.MIN_VALUE ? 0 : before.nanos - startNanos,
                    a.nanos - b.nanos,
                    a.requests - b.requests,
                    a.failed - b.failed,
                    measured ? cpu : -1,
                    a.jitNanos - b.jitNanos,
                    stopped || gaveUpReason != null || !measured,
                    totalRequests,
                    gaveUpReason,
                    lastJitShare,
                    lastCoresShare);
        }
    }

    /** Counters at one moment: requests finished and failed, and the process's and the JIT's CPU time. */
    private record Snapshot(long nanos, long requests, long failed, long cpuNanos, long jitNanos) {

        static final Snapshot NONE = new Snapshot(0, 0, 0, 0, 0);

        static Snapshot at(long nanos, Progress p) {
            return new Snapshot(nanos, p.done(), p.failed(), ProcessCpu.nanos(), ProcessCpu.jitCompilerNanos());
        }

        /**
         * The process's CPU since {@code earlier} less the JIT compiler threads' (at least 0: their time is read in 10
         * ms ticks), or -1 if unknown.
         */
        long requestCpuNanosSince(Snapshot earlier) {
            return cpuNanos < 0 || earlier.cpuNanos < 0
                    ? -1
                    : Math.max(0, cpuNanos - earlier.cpuNanos - (jitNanos - earlier.jitNanos));
        }

        /** Process CPU less the JIT's per request completed since {@code earlier}; NaN if unknown or none. */
        double cpuNanosPerRequestSince(Snapshot earlier) {
            long cpu = requestCpuNanosSince(earlier);
            long done = requests - earlier.requests;
            return cpu < 0 || done == 0 ? Double.NaN : (double) cpu / done;
        }

        /** The cores kept busy since {@code earlier}, the JIT compiler threads' time left out; NaN if unknown. */
        double busyCoresSince(Snapshot earlier) {
            long cpu = requestCpuNanosSince(earlier);
            long wall = nanos - earlier.nanos;
            return cpu < 0 || wall <= 0 ? Double.NaN : (double) cpu / wall;
        }

        /**
         * The JIT compiler threads' share of the process's CPU since {@code earlier}, at most 1 (their time is read in
         * 10 ms ticks, which can exceed a short window's CPU); 1 if unknown.
         */
        double jitShareSince(Snapshot earlier) {
            long cpu = cpuNanos - earlier.cpuNanos;
            return cpuNanos < 0 || earlier.cpuNanos < 0 || cpu <= 0
                    ? 1
                    : Math.min(1, (double) (jitNanos - earlier.jitNanos) / cpu);
        }
    }
}
