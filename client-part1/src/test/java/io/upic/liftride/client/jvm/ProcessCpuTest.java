package io.upic.liftride.client.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JIT compiler threads' CPU from /proc task stat lines, and a sum that does not fall when threads end. */
class ProcessCpuTest {

    @TempDir
    Path tasks;

    @Test
    void aCompilerThreadThatEndsKeepsItsLastCpuTimeSoTheSumNeverFalls() throws IOException {
        Map<String, Long> seen = new HashMap<>();
        Path c2 = write("101", "C2 CompilerThre", 40, 10, 5_000);
        Path worker = write("102", "ride-sender-1", 900, 100, 5_001);
        ProcessCpu.recordCompilerTicks(c2, seen);
        ProcessCpu.recordCompilerTicks(worker, seen);
        assertEquals(Map.of("101@5000", 50L), seen, "only the compiler thread, utime + stime");

        write("101", "C2 CompilerThre", 60, 10, 5_000);
        ProcessCpu.recordCompilerTicks(c2, seen);
        assertEquals(70L, seen.get("101@5000"));

        Files.delete(c2); // HotSpot ended the idle compiler thread
        ProcessCpu.recordCompilerTicks(c2, seen);
        assertEquals(70L, seen.get("101@5000"), "its last value stays");

        // Linux reuses the tid for a new compiler thread: counted apart, from its own start
        ProcessCpu.recordCompilerTicks(write("101", "C1 CompilerThre", 3, 0, 9_000), seen);
        assertEquals(70L + 3L, seen.values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void thisJvmsCompilerTimeNeverFallsFromOneReadToTheNext() {
        long first = ProcessCpu.jitCompilerNanos();
        long second = ProcessCpu.jitCompilerNanos();
        // a JVM that has run tests has compiled code: 0 would mean /proc/self/task was not read
        assertTrue(first > 0 && second >= first, first + " then " + second);
    }

    private Path write(String tid, String name, long utime, long stime, long start) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(tid));
        // pid (comm) state, then fields 4-13, utime (14), stime (15), fields 16-21, starttime (22), field 23
        String line = tid + " (" + name + ") S 1 2 3 4 5 6 7 8 9 10 " + utime + " " + stime + " 0 0 20 0 1 0 " + start
                + " 0\n";
        return Files.writeString(dir.resolve("stat"), line);
    }
}
