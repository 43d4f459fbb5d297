package io.upic.liftride.client.prediction;

import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.jvm.ProcessCpu;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;

/**
 * Warms a cold JVM with slices of load until its JIT compiler has settled, learning the warm D and the cold
 * JVM's extra CPU; runs when nothing is stored for this machine ({@link CalibrationStore}). Static and thread-safe.
 */
public final class WarmUp {

    /** The warm-up ends after this long even if the compiler has not settled. */
    public static final long MAX_NANOS = 30_000_000_000L;

    /** A warm-up may make fewer attempts than this runs not at all: it would barely warm and store nothing. */
    public static final long MIN_ATTEMPTS = 50_000;

    /** Settled: the compiler threads spent at most this share of a slice's CPU... */
    static final double SETTLED_JIT_SHARE = 0.05;

    /** ...and the slice's D is within this fraction of the slice before. */
    static final double SETTLED_CHANGE = 0.10;

    /** The first slice's requests; each next one aims at {@link #SLICE_NANOS}, at most 4 times the one before. */
    static final long FIRST_SLICE = 200;

    /** How long a slice should take: short enough over a slow network, long enough to measure D. */
    static final long SLICE_NANOS = 1_000_000_000L;

    private WarmUp() {}

    /**
     * What the warm-up did.
     *
     * @param slices        slices run
     * @param attempts      HTTP attempts of all slices
     * @param wallNanos     how long it took
     * @param demandNanos   D: CPU nanoseconds per attempt of the last slice, its compiler threads' left out
     * @param extraCpuNanos CPU nanoseconds of all slices beyond D per attempt: what a cold JVM spends compiling
     * @param settled       whether it ended because the compiler had settled (else a limit or a stop ended it)
     */
    public record Result(
            int slices, long attempts, long wallNanos, double demandNanos, double extraCpuNanos, boolean settled) {

        /** Whether it ran to a state worth storing: settled, or for the whole {@link #MAX_NANOS}. */
        public boolean complete() {
            return settled || wallNanos >= MAX_NANOS;
        }
    }

    /**
     * Runs {@code slice} (one small run of load of about the requests given, returning its result) until the
     * compiler has settled, {@code maxAttempts} attempts were made, {@link #MAX_NANOS} passed or {@code stop} is
     * true; null when this process's CPU time is unknown or no slice ran.
     */
    public static Result run(LongFunction<RunResult> slice, long maxAttempts, BooleanSupplier stop) {
        long start = System.nanoTime();
        long attempts = 0;
        double cpuSum = 0;
        double previous = Double.NaN;
        double d = Double.NaN;
        int slices = 0;
        boolean settled = false;
        long size = FIRST_SLICE;
        while (!settled && attempts < maxAttempts && System.nanoTime() - start < MAX_NANOS && !stop.getAsBoolean()) {
            long jitBefore = ProcessCpu.jitCompilerNanos();
            long cpuBefore = ProcessCpu.nanos();
            long sliceStart = System.nanoTime();
            long sliceAttempts = slice.apply(size).requests().attempts();
            long wall = Math.max(1, System.nanoTime() - sliceStart);
            long cpu = ProcessCpu.nanos() - cpuBefore;
            long jit = Math.max(0, ProcessCpu.jitCompilerNanos() - jitBefore);
            if (cpuBefore < 0 || cpu < 0 || sliceAttempts == 0) {
                return null;
            }
            slices++;
            attempts += sliceAttempts;
            cpuSum += cpu;
            d = (double) (cpu - jit) / sliceAttempts;
            settled = jit <= SETTLED_JIT_SHARE * cpu && Math.abs(d - previous) <= SETTLED_CHANGE * previous;
            previous = d;
            long aimed = Math.min(4 * size, (long) ((double) sliceAttempts * SLICE_NANOS / wall));
            size = Math.max(FIRST_SLICE, Math.min(aimed, maxAttempts - attempts));
        }
        if (slices == 0) {
            return null;
        }
        return new Result(slices, attempts, System.nanoTime() - start, d, Math.max(0, cpuSum - d * attempts), settled);
    }
}
