package io.upic.liftride.cluster;

import java.time.Duration;

/**
 * A CPU cap like a small instance's: {@code cpus} of CPU time per {@code period} of wall time, e.g. 0.25 CPU
 * as 2.5 ms in every 10 ms. A short period matters: with the kernel's default 100 ms a 0.25-CPU process that
 * used its quota early stalls for 75 ms at a time, which no virtual machine does. Immutable.
 *
 * @param cpus CPUs the process may use, in (0, cores of this machine]
 * @param period the quota period, 1 ms..1 s (the kernel's range), whole microseconds
 */
public record CpuQuota(double cpus, Duration period) {
    /** About what a hypervisor's scheduler slice is: short enough that a capped server never stalls long. */
    public static final Duration DEFAULT_PERIOD = Duration.ofMillis(10);
    /** The kernel refuses a quota under 1 ms per period. */
    private static final long MIN_QUOTA_MICROS = 1_000;

    public CpuQuota {
        int cores = Runtime.getRuntime().availableProcessors();
        if (!(cpus > 0) || cpus > cores) {
            throw new IllegalArgumentException(
                    "--server-cpus must be > 0 and <= " + cores + " (the cores), got " + cpus);
        }
        if (period == null
                || period.compareTo(Duration.ofMillis(1)) < 0
                || period.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new IllegalArgumentException("--server-cpu-period-ms must be in 1..1000, got " + period);
        }
        if (Math.round(cpus * period.toNanos() / 1_000.0) < MIN_QUOTA_MICROS) {
            throw new IllegalArgumentException("--server-cpus x --server-cpu-period-ms must be at least 1 ms of CPU"
                    + " per period (the kernel's minimum), got " + cpus + " x " + period.toMillis() + " ms");
        }
    }

    /** A cap of {@code cpus} with the {@link #DEFAULT_PERIOD}. */
    public static CpuQuota of(double cpus) {
        return new CpuQuota(cpus, DEFAULT_PERIOD);
    }

    /** The period in microseconds, as cgroups take it. */
    public long periodMicros() {
        return period.toNanos() / 1_000;
    }

    /** The CPU time allowed per period in microseconds, as cgroups take it. */
    public long quotaMicros() {
        return Math.round(cpus * periodMicros());
    }

    /** E.g. "0.25 CPU (2500 us per 10000 us)", for banners and errors. */
    @Override
    public String toString() {
        return cpus + " CPU (" + quotaMicros() + " us per " + periodMicros() + " us)";
    }
}
