package io.upic.liftride.client.jvm;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

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

    /** Linux's USER_HZ: the unit of the CPU times in /proc/PID/task/TID/stat (100 on every Linux architecture). */
    private static final long USER_HZ = 100;

    /**
     * CPU time of this JVM's JIT compiler threads so far (HotSpot's "C1/C2 CompilerThread"), in nanoseconds at 10
     * ms resolution, from Linux's /proc/self/task; 0 where that is not readable (then nothing is left out). Threads
     * that have ended are not counted (HotSpot keeps its compiler threads while it compiles).
     */
    public static long jitCompilerNanos() {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                ticks += compilerTicks(task.resolve("stat"));
            }
        } catch (IOException | RuntimeException e) {
            return 0; // not Linux, or /proc not mounted
        }
        return ticks * (1_000_000_000L / USER_HZ);
    }

    /** utime + stime of one task if its name is a compiler thread's, else 0. */
    private static long compilerTicks(Path stat) {
        try {
            String line = Files.readString(stat);
            int open = line.indexOf('('), close = line.lastIndexOf(')');
            String name = line.substring(open + 1, close);
            if (!name.contains("CompilerThre")) {
                return 0;
            }
            String[] f = line.substring(close + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of stat: utime, stime
        } catch (IOException | RuntimeException e) {
            return 0; // the thread ended meanwhile
        }
    }
}
