package io.upic.liftride.client.jvm;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** This JVM's CPU time, for the summary's CPU line. Static and thread-safe. */
public final class ProcessCpu {

    private ProcessCpu() {}

    /** CPU time of all this JVM's threads so far in nanoseconds, or -1 where the platform does not report it. */
    public static long nanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            long t = sun.getProcessCpuTime();
            return t >= 0 ? t : -1;
        }
        return -1;
    }
}
