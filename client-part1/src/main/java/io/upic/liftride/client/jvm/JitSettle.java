package io.upic.liftride.client.jvm;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * With {@code --jit-warmup}: waits, just before a run's clock starts, until this JVM has gone quiet: the
 * JIT compiler finishing the code the baseline (and any listener warm-up) made hot. Stateless; thread-safe.
 *
 * <p>Why: measured with JFR on a {@code -t 64} run, the compiler threads were still busy with the
 * baseline's code when the run began, and that compilation ran inside the measured wall time on the
 * cores the workers share with the server: a cost that varies from run to run and belongs to no
 * request. The JVM reports no compile queue, so the signals are the process's CPU time (with the
 * client's threads idle, a busy compiler is what uses a core) and the compiler's total time, which
 * grows whenever a compilation finishes. It makes runs comparable (benchmarks); no end-to-end number
 * shows it changing a single run's result, so it is opt-in.
 *
 * <p>The window is 100 ms because the JDK reads process CPU time in clock ticks (10 ms on Linux,
 * ~16 ms on Windows): over one 10 ms poll a busy process can show no tick at all, over ten it cannot.
 */
public final class JitSettle {

    /** How often the clocks are sampled. */
    public static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Quiet is judged over this many polls (100 ms): long enough for tick-grained CPU time to show a busy core. */
    public static final int WINDOW_POLLS = 10;
    /** Quiet means the process used less than this share of one core over the window ... */
    public static final double IDLE_CORE_SHARE = 0.2;
    // ... and no compilation finished during it (when the JVM reports compile time).

    private JitSettle() {}

    /**
     * What the wait found.
     *
     * @param waitedNanos how long it waited
     * @param settled     whether the JVM went quiet (false: the cap was reached, or CPU time is unknown)
     * @param cpuNanos    CPU the JVM used while waiting (-1 if unknown)
     */
    public record Result(long waitedNanos, boolean settled, long cpuNanos) {}

    /** Waits at most {@code maxNanos} using this JVM's clocks. */
    public static Result await(long maxNanos) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        LongSupplier compileMillis =
                jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : () -> 0;
        return await(ProcessCpu::nanos, compileMillis, System::nanoTime, LockSupport::parkNanos, maxNanos);
    }

    /** Sleeps for about the given nanoseconds (a seam for tests). */
    public interface Sleeper {
        void sleep(long nanos);
    }

    /**
     * The wait, over given clocks: returns once the last {@link #WINDOW_POLLS} polls together used
     * less than {@link #IDLE_CORE_SHARE} of a core and saw no compilation finish, or when
     * {@code maxNanos} have passed.
     *
     * @param cpuNanos      process CPU time in nanoseconds, negative when unknown (then it returns at once)
     * @param compileMillis the JIT's total compilation time so far (constant when unknown)
     * @param clock         monotonic time in nanoseconds
     */
    public static Result await(
            LongSupplier cpuNanos, LongSupplier compileMillis, LongSupplier clock, Sleeper sleeper, long maxNanos) {
        if (maxNanos < 0) {
            throw new IllegalArgumentException("maxNanos < 0: " + maxNanos);
        }
        long t0 = clock.getAsLong();
        long cpu0 = cpuNanos.getAsLong();
        if (cpu0 < 0) {
            return new Result(0, false, -1);
        }
        // ring buffers of the last WINDOW_POLLS + 1 samples
        int n = WINDOW_POLLS + 1;
        long[] times = new long[n], cpus = new long[n], compiles = new long[n];
        times[0] = t0;
        cpus[0] = cpu0;
        compiles[0] = compileMillis.getAsLong();
        for (int i = 1; ; i++) {
            long now = clock.getAsLong();
            if (now - t0 >= maxNanos) {
                return new Result(now - t0, false, cpus[(i - 1) % n] - cpu0);
            }
            sleeper.sleep(POLL_NANOS);
            long cpu = cpuNanos.getAsLong();
            now = clock.getAsLong();
            if (cpu < 0) {
                return new Result(now - t0, false, -1);
            }
            int k = i % n;
            times[k] = now;
            cpus[k] = cpu;
            compiles[k] = compileMillis.getAsLong();
            if (i < WINDOW_POLLS) {
                continue;
            }
            int oldest = (i - WINDOW_POLLS) % n;
            long window = Math.max(1, now - times[oldest]);
            boolean quiet = cpu - cpus[oldest] < IDLE_CORE_SHARE * window && compiles[k] == compiles[oldest];
            if (quiet) {
                return new Result(now - t0, true, cpu - cpu0);
            }
        }
    }
}
