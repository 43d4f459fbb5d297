package io.upic.liftride.client.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Waits, just before a run's clock starts, until this JVM's CPU use has died down: the JIT compiler
 * finishing the code the baseline (and any warm-up) made hot. Stateless; thread-safe.
 *
 * <p>Why: measured with JFR on a {@code -t 64} run, the compiler threads were still busy with the
 * baseline's code when the run began, and that compilation ran inside the measured wall time on the
 * cores the workers share with the server: a cost that varies from run to run and belongs to no
 * request. The JVM reports no queue length, and a long compilation finishes (and is counted) only at
 * its end, so the signal is the process's own CPU: with the client's threads idle, a busy compiler is
 * the only thing that uses a core.
 */
public final class JitSettle {

    /** How often the CPU is sampled. */
    public static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Idle means less than this share of one core over a poll interval. */
    public static final double IDLE_CORE_SHARE = 0.2;
    /** ... for this many intervals in a row. */
    public static final int IDLE_POLLS = 3;

    private JitSettle() {
    }

    /**
     * What the wait found.
     *
     * @param waitedNanos how long it waited
     * @param settled     whether the JVM went idle (false: the cap was reached, or CPU time is unknown)
     * @param cpuNanos    CPU the JVM used while waiting (-1 if unknown)
     */
    public record Result(long waitedNanos, boolean settled, long cpuNanos) {
    }

    /** Waits at most {@code maxNanos} using this JVM's CPU time and clock. */
    public static Result await(long maxNanos) {
        return await(ProcessCpu::nanos, System::nanoTime, nanos -> java.util.concurrent.locks.LockSupport.parkNanos(nanos), maxNanos);
    }

    /** Sleeps for about the given nanoseconds (a seam for tests). */
    public interface Sleeper {
        void sleep(long nanos);
    }

    /**
     * The wait, over given clocks: returns once {@link #IDLE_POLLS} consecutive intervals each used
     * less than {@link #IDLE_CORE_SHARE} of a core, or when {@code maxNanos} have passed.
     *
     * @param cpuNanos process CPU time in nanoseconds, negative when unknown (then it returns at once)
     * @param clock    monotonic time in nanoseconds
     */
    public static Result await(LongSupplier cpuNanos, LongSupplier clock, Sleeper sleeper, long maxNanos) {
        if (maxNanos < 0) throw new IllegalArgumentException("maxNanos < 0: " + maxNanos);
        long t0 = clock.getAsLong();
        long cpu0 = cpuNanos.getAsLong();
        if (cpu0 < 0) return new Result(0, false, -1);
        long lastCpu = cpu0, lastTime = t0;
        int idle = 0;
        while (true) {
            long now = clock.getAsLong();
            if (now - t0 >= maxNanos) return new Result(now - t0, false, lastCpu - cpu0);
            sleeper.sleep(POLL_NANOS);
            long cpu = cpuNanos.getAsLong();
            now = clock.getAsLong();
            if (cpu < 0) return new Result(now - t0, false, -1);
            long interval = Math.max(1, now - lastTime);
            idle = cpu - lastCpu < IDLE_CORE_SHARE * interval ? idle + 1 : 0;
            lastCpu = cpu;
            lastTime = now;
            if (idle >= IDLE_POLLS) return new Result(now - t0, true, cpu - cpu0);
        }
    }
}
