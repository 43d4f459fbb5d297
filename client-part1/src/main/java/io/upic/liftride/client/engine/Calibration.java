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
 * The load calibration that follows the single-thread {@link Baseline}: a closed-loop run at a moderate thread count
 * that warms the JVM for a fixed time and then measures D, the CPU time per request under load, as this process's
 * CPU time over the requests completed: the client's, and the embedded server's when it runs in this JVM, GC and JIT
 * included (the warm-up is there for the JIT to be done).
 *
 * <p>It runs through the same {@link LoadEngine} as a run, observed by the same kind of {@link AttemptListener}
 * (client-part2's recorders, histograms and CSV writer, writing into nothing), so that it warms the code a run runs.
 * The rides are real (stored by the server, like the baseline's), random over all skiers and the whole day; read the
 * server's counters after this. Static and thread-safe.
 */
public final class Calibration {

    /** The moderate thread count: enough to batch wake-ups as a loaded run does, far below any saturation. */
    public static final int THREADS = 16;

    /** The longest part, and the shortest. */
    public static final long MAX_PART_NANOS = 2_000_000_000L, MIN_PART_NANOS = 200_000_000L;

    /**
     * A full calibration's warm-up: on a quiet 2-core machine under this load C2 compiles for 6-9 s, and D measured
     * before it is done is up to 40% high.
     */
    public static final long WARMUP_NANOS = 10_000_000_000L;

    /** The calibration's phase name (its worker threads are named after it). */
    public static final String PHASE = "calibration";

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
     * @param cpuNanos      this process's CPU time during the measured part, or -1 if unknown
     * @param stopped       whether a stop or a give-up cut it short
     * @param totalRequests every request it completed, warm-up and the ones in flight at its end included (the
     *                      server stores each that got a 201)
     * @param gaveUpReason  why it gave up on a silent server (see {@link SilentServerDetector}), or null
     */
    @Builder(toBuilder = true)
    public record Result(
            int threads,
            long warmupNanos,
            long wallNanos,
            long requests,
            long failed,
            long cpuNanos,
            boolean stopped,
            long totalRequests,
            String gaveUpReason) {

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
         * This process's busy cores in the measured part (cpuNanos / wallNanos), or NaN if unknown: fewer than the
         * machine's cores while the model assumes them all means the machine was shared.
         */
        public double busyCores() {
            return cpuNanos < 0 || wallNanos <= 0 ? Double.NaN : (double) cpuNanos / wallNanos;
        }

        /** The whole cost: warm-up plus measured part. */
        public long costNanos() {
            return warmupNanos + wallNanos;
        }

        /** Whether D can be used: measured, not cut short, some requests done, some CPU time. */
        public boolean usable() {
            return !stopped && requests > 0 && cpuNanos > 0;
        }
    }

    /**
     * How long a calibration warms up, and how long its warm-up slices and its measured part last.
     *
     * @param warmupNanos >= 0 (0: one slice)
     * @param partNanos   > 0
     */
    public record Length(long warmupNanos, long partNanos) {
        public Length {
            if (warmupNanos < 0) {
                throw new IllegalArgumentException("warmupNanos < 0: " + warmupNanos);
            }
            if (partNanos <= 0) {
                throw new IllegalArgumentException("partNanos <= 0: " + partNanos);
            }
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
     * run's): unmeasured in slices of the part's length for the warm-up's (0: one slice), then one part measured,
     * and stops it. Gives up on a silent server as a run does (the result then says why).
     *
     * @param stopRequested  checked every {@link #TICK_MILLIS} ms; true ends the calibration early (then it is
     *                       stopped)
     * @param controlRequest sent at the end of every warm-up slice but the last, on the progress thread: the request
     *                       a run sends before its clock ({@code GET /statistics}), whose code a run would otherwise
     *                       compile (and undo the POST path's) inside its clock
     */
    public static Result run(
            RideSenderFactory senders,
            Baseline.Spec spec,
            LoadPlan plan,
            Length length,
            BooleanSupplier stopRequested,
            AttemptListener listener,
            Runnable controlRequest) {
        long partNanos = length.partNanos();
        Long seed = spec.seed();
        Controller controller = new Controller(
                partNanos,
                length.warmupNanos(),
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
     * Sends nothing itself: on the engine's progress thread, every tick, it ends a slice when its time has come, and
     * stops the engine after the measured part (or on a stop request). Its fields are written on the progress thread
     * and read by the caller after the engine has joined that thread.
     */
    private static final class Controller implements ProgressListener {
        private final long partNanos;
        private final long warmupNanos;
        private final BooleanSupplier stopRequested;
        private final Runnable controlRequest;
        private final int threads;
        private LoadEngine engine;

        private long startNanos = Long.MIN_VALUE;
        private long sliceEndNanos;
        private Snapshot before;
        private Snapshot after;
        private boolean stopped;
        private String failure;

        Controller(
                long partNanos, long warmupNanos, BooleanSupplier stopRequested, Runnable controlRequest, int threads) {
            this.partNanos = partNanos;
            this.warmupNanos = warmupNanos;
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
            if (now - startNanos >= warmupNanos) {
                before = s;
            } else {
                controlRequest.run(); // its own CPU, one GET, falls into the next slice
            }
            sliceEndNanos = now + partNanos;
        }

        Result result(long totalRequests, String gaveUpReason) {
            boolean measured = before != null && after != null;
            Snapshot b = measured ? before : Snapshot.NONE;
            Snapshot a = measured ? after : Snapshot.NONE;
            return new Result(
                    threads,
                    before == null ? 0 : before.nanos - startNanos,
                    a.nanos - b.nanos,
                    a.requests - b.requests,
                    a.failed - b.failed,
                    measured && a.cpuNanos >= 0 && b.cpuNanos >= 0 ? a.cpuNanos - b.cpuNanos : -1,
                    stopped || gaveUpReason != null || !measured,
                    totalRequests,
                    gaveUpReason);
        }
    }

    /** Counters at one moment: requests finished and failed, and the process's CPU time. */
    private record Snapshot(long nanos, long requests, long failed, long cpuNanos) {

        static final Snapshot NONE = new Snapshot(0, 0, 0, 0);

        static Snapshot at(long nanos, Progress p) {
            return new Snapshot(nanos, p.done(), p.failed(), ProcessCpu.nanos());
        }
    }
}
