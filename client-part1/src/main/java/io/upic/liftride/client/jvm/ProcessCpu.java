package io.upic.liftride.client.jvm;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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

    /** The last CPU ticks of every compiler thread seen, so the sum does not fall when HotSpot ends idle ones. */
    private static final Map<String, Long> SEEN_TICKS = new ConcurrentHashMap<>();

    /** CPU nanoseconds of this JVM's JIT threads (10 ms resolution, /proc/self/task; 0 if unreadable). */
    public static long jitCompilerNanos() {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                recordCompilerTicks(task.resolve("stat"), SEEN_TICKS);
            }
        } catch (IOException | RuntimeException e) {
            return 0; // not Linux, or /proc not mounted
        }
        return SEEN_TICKS.values().stream().mapToLong(Long::longValue).sum() * (1_000_000_000L / USER_HZ);
    }

    /** Records utime + stime of one task in {@code seen} if its name is a compiler thread's. */
    static void recordCompilerTicks(Path stat, Map<String, Long> seen) {
        try {
            String line = Files.readString(stat);
            int open = line.indexOf('('), close = line.lastIndexOf(')');
            String name = line.substring(open + 1, close);
            if (!name.contains("CompilerThre")) {
                return;
            }
            String[] f = line.substring(close + 2).split(" ");
            // fields 14, 15 and 22 of stat: utime, stime, starttime (a tid can be reused; with its start, not)
            String key = stat.getParent().getFileName() + "@" + f[19];
            seen.merge(key, Long.parseLong(f[11]) + Long.parseLong(f[12]), Math::max);
        } catch (IOException | RuntimeException e) {
            // the thread ended meanwhile: its last value seen stays
        }
    }
}
