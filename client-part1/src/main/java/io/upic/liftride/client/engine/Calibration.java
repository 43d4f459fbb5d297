package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.jvm.ProcessCpu;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;
import lombok.Builder;

/**
 * The load calibration that follows the single-thread {@link Baseline}: a short closed-loop run at a moderate
 * thread count that first warms the JVM (its JIT compiles the multi-threaded paths, which a single thread
 * never takes) and then measures D, the CPU time per request under load, from this process's CPU time over
 * the requests completed: the client's CPU, and the embedded server's when it runs in this JVM, GC included,
 * less the JIT compiler threads' CPU time in the same window (a young JVM's one-off cost, not a request's:
 * through a slow network a few hundred requests in 2 s otherwise carried 450 us each of it, against 70-90 us in
 * the runs). The rides are real (stored by the server, like the baseline's), random over all skiers and the
 * whole day; read the server's counters after this. Static and thread-safe.
 */
public final class Calibration {

    /** The moderate thread count: enough to batch wake-ups as a loaded run does, far below any saturation. */
    public static final int THREADS = 16;

    /** The longest warm-up, and the longest measured part: about 8 s with the default baseline, together. */
    public static final long MAX_PART_NANOS = 2_000_000_000L;

    /** The shortest warm-up slice, and the shortest measured part. */
    public static final long MIN_PART_NANOS = 200_000_000L;

    /**
     * The longest warm-up: on a quiet 2-core machine C2 was still compiling 2 s into a run, and D measured then was
     * 80 us a request against 48 us once it had settled (a 40% miss of the model, blamed on D).
     */
    public static final long MAX_WARMUP_NANOS = 10_000_000_000L;

    /** The longest warm-up in slices: a short test baseline keeps a short calibration. */
    public static final int MAX_WARMUP_SLICES = 12;

    /** A warm-up slice is settled when the JIT compiler threads used at most this share of the process's CPU... */
    static final double SETTLED_JIT_SHARE = 0.05;

    /** ...and its D is within this of the slice before. */
    static final double SETTLED_D_CHANGE = 0.10;

    private Calibration() {}

    /**
     * What the calibration measured in its measured part.
     *
     * @param threads          threads that sent
     * @param warmupNanos      how long the unmeasured warm-up ran
     * @param wallNanos        the measured part's duration
     * @param requests         requests completed in the measured part (201 or not)
     * @param failed           of which without a 201
     * @param attempts         HTTP attempts of the measured part
     * @param latencyNanosSum  their latencies, summed
     * @param cpuNanos         this process's CPU time during the measured part less the JIT compiler's time then,
     *                         or -1 if unknown
     * @param jitNanos         the JIT compiler threads' CPU time during the measured part (left out of cpuNanos), 0 if
     *                         unknown
     * @param stopped          whether a stop or a give-up cut it short
     * @param totalRequests    every request it completed, warm-up and the ones in flight at its end included
     *                         (the server stores each that got a 201)
     */
    @Builder(toBuilder = true)
    public record Result(
            int threads,
            long warmupNanos,
            long wallNanos,
            long requests,
            long failed,
            long attempts,
            long latencyNanosSum,
            long cpuNanos,
            long jitNanos,
            boolean stopped,
            long totalRequests) {

        /** D under load: process CPU nanoseconds per completed request, or NaN if unknown or nothing completed. */
        public double cpuNanosPerRequest() {
            return cpuNanos < 0 || requests == 0 ? Double.NaN : (double) cpuNanos / requests;
        }

        /** Completed requests per second of the measured part. */
        public double throughputPerSecond() {
            return wallNanos <= 0 ? Double.NaN : requests * 1e9 / wallNanos;
        }

        /** Mean latency of an attempt in the measured part, or NaN without one. */
        public double meanLatencyNanos() {
            return attempts == 0 ? Double.NaN : (double) latencyNanosSum / attempts;
        }

        /** The whole cost: warm-up plus measured part. */
        public long costNanos() {
            return warmupNanos + wallNanos;
        }

        /** Whether D can be used: measured, not cut short, some requests done. */
        public boolean usable() {
            return !stopped && requests > 0 && cpuNanos >= 0;
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
     * Runs {@code threads} threads, each with its own sender of {@code senders}, sending rides of {@code spec}
     * back to back, unmeasured in slices of {@code partNanos} until the JVM has settled (at most {@link
     * #MAX_WARMUP_SLICES} slices and {@link #MAX_WARMUP_NANOS}), then {@code partNanos} measured, and stops them.
     *
     * @param stopRequested checked before each request; true ends the calibration early (then it is stopped)
     */
    public static Result run(
            RideSenderFactory senders,
            Baseline.Spec spec,
            int threads,
            long partNanos,
            BooleanSupplier stopRequested,
            SilentServerDetector silentServer) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads < 1: " + threads);
        }
        if (partNanos <= 0) {
            throw new IllegalArgumentException("partNanos <= 0: " + partNanos);
        }
        Crowd crowd = new Crowd(threads, () -> stopRequested.getAsBoolean() || silentServer.gaveUp());
        String runId = RideKeys.newRunId();
        for (int k = 0; k < threads; k++) {
            RideSender rideSender = senders.create();
            RetryingSender sender = new RetryingSender(
                    rideSender,
                    spec.retryPolicy(),
                    AttemptRecorder.NONE,
                    crowd::stopping,
                    silentServer,
                    new RideKeys(runId, "calibration-" + k));
            Long seed = spec.seed();
            RandomGenerator random = seed == null ? ThreadLocalRandom.current() : new SplittableRandom(~seed - 1 - k);
            crowd.start(k, rideSender, sender, random, spec);
        }
        try {
            long start = System.nanoTime();
            Snapshot before = warmUp(crowd, start, partNanos);
            sleepUntil(before.nanos + partNanos, crowd);
            Snapshot after = crowd.snapshot();
            boolean cut = crowd.stopping();
            crowd.stop();
            Snapshot end = crowd.snapshot();
            return new Result(
                    threads,
                    before.nanos - start,
                    after.nanos - before.nanos,
                    after.requests - before.requests,
                    after.failed - before.failed,
                    after.attempts - before.attempts,
                    after.latencyNanos - before.latencyNanos,
                    before.cpuNanos < 0 || after.cpuNanos < 0
                            ? -1
                            : Math.max(0, after.cpuNanos - before.cpuNanos - (after.jitNanos - before.jitNanos)),
                    after.jitNanos - before.jitNanos,
                    cut,
                    end.requests);
        } finally {
            crowd.stop();
        }
    }

    /**
     * Sends in slices of {@code sliceNanos} until the JVM has settled (the JIT compiler threads idle and D steady
     * from one slice to the next) or the warm-up's limits are reached; returns the counters at its end.
     */
    private static Snapshot warmUp(Crowd crowd, long startNanos, long sliceNanos) {
        long limitNanos = Math.min(MAX_WARMUP_NANOS, MAX_WARMUP_SLICES * sliceNanos);
        Snapshot previous = crowd.snapshot();
        double previousD = Double.NaN;
        while (true) {
            sleepUntil(previous.nanos + sliceNanos, crowd);
            Snapshot now = crowd.snapshot();
            double d = now.cpuNanosPerRequestSince(previous);
            boolean settled = now.jitShareSince(previous) <= SETTLED_JIT_SHARE
                    && Math.abs(d - previousD) <= SETTLED_D_CHANGE * previousD;
            if (settled || Double.isNaN(d) || crowd.stopping() || now.nanos - startNanos >= limitNanos) {
                return now;
            }
            previous = now;
            previousD = d;
        }
    }

    private static void sleepUntil(long deadlineNanos, Crowd crowd) {
        long left;
        while ((left = deadlineNanos - System.nanoTime()) > 0 && !crowd.stopping()) {
            try {
                Thread.sleep(Math.min(left / 1_000_000 + 1, 20));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                crowd.stop();
                return;
            }
        }
    }

    /** Counters at one moment: sums over the threads, and the process's CPU time. */
    private record Snapshot(
            long nanos, long requests, long failed, long attempts, long latencyNanos, long cpuNanos, long jitNanos) {

        /** Process CPU less the JIT's per request completed since {@code earlier}; NaN if unknown or none. */
        double cpuNanosPerRequestSince(Snapshot earlier) {
            long done = requests - earlier.requests;
            return cpuNanos < 0 || earlier.cpuNanos < 0 || done == 0
                    ? Double.NaN
                    : (double) (cpuNanos - earlier.cpuNanos - (jitNanos - earlier.jitNanos)) / done;
        }

        /** The JIT compiler threads' share of the process's CPU since {@code earlier} (1 if unknown). */
        double jitShareSince(Snapshot earlier) {
            long cpu = cpuNanos - earlier.cpuNanos;
            return cpuNanos < 0 || earlier.cpuNanos < 0 || cpu <= 0 ? 1 : (double) (jitNanos - earlier.jitNanos) / cpu;
        }
    }

    /**
     * The JIT compiler threads' CPU time in nanoseconds (not CompilationMXBean's compilation time, which is
     * elapsed time: on a busy machine it counted 1.7 s of a 2 s window on 2 cores).
     */
    private static long jitNanos() {
        return ProcessCpu.jitCompilerNanos();
    }

    /** The calibration's threads and their counters (each written by its own thread, read by the caller). */
    private static final class Crowd {
        private final BooleanSupplier outsideStop;
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicLong[] requests;
        private final AtomicLong[] failed;
        private final AtomicLong[] attempts;
        private final AtomicLong[] latencyNanos;
        private volatile boolean done;
        private volatile boolean stopped;

        Crowd(int count, BooleanSupplier outsideStop) {
            this.outsideStop = outsideStop;
            requests = counters(count);
            failed = counters(count);
            attempts = counters(count);
            latencyNanos = counters(count);
        }

        private static AtomicLong[] counters(int count) {
            AtomicLong[] a = new AtomicLong[count];
            for (int i = 0; i < count; i++) {
                a[i] = new AtomicLong();
            }
            return a;
        }

        boolean stopping() {
            if (!stopped && outsideStop.getAsBoolean()) {
                stopped = true;
            }
            return done || stopped;
        }

        void start(int k, RideSender rideSender, RetryingSender sender, RandomGenerator random, Baseline.Spec spec) {
            Thread t = new Thread(() -> loop(k, rideSender, sender, random, spec), "calibration-" + k);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }

        private void loop(
                int k, RideSender rideSender, RetryingSender sender, RandomGenerator random, Baseline.Spec spec) {
            try (rideSender) {
                while (!stopping()) {
                    int code = Baseline.send(sender, random, spec);
                    if (!AttemptCodes.isSuccess(code)) {
                        failed[k].incrementAndGet();
                    }
                    attempts[k].set(sender.attempts());
                    latencyNanos[k].set(sender.latencyNanosSum());
                    requests[k].incrementAndGet();
                }
            }
        }

        Snapshot snapshot() {
            long r = 0, f = 0, a = 0, l = 0;
            for (int k = 0; k < requests.length; k++) {
                r += requests[k].get();
                f += failed[k].get();
                a += attempts[k].get();
                l += latencyNanos[k].get();
            }
            return new Snapshot(System.nanoTime(), r, f, a, l, ProcessCpu.nanos(), jitNanos());
        }

        /** Ends every thread's loop after its request in flight and waits for them. */
        void stop() {
            done = true;
            for (Thread t : threads) {
                try {
                    t.join(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
