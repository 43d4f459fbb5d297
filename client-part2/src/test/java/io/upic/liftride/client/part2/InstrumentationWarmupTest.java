package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InstrumentationWarmupTest {

    @TempDir
    Path dir;

    @Test
    void everySyntheticAttemptReachesTheWriterAndTheScratchFileIsDeleted() throws Exception {
        InstrumentationWarmup.Result r =
                InstrumentationWarmup.run(List.of("startup", "peak", "cooldown"), dir, false, 0, 0);
        assertEquals(1, r.passes(), "a zero budget still runs one pass");
        assertEquals(InstrumentationWarmup.PASS_ATTEMPTS, r.attempts());
        assertEquals(r.attempts(), r.rowsFormatted(), "the writer formatted every attempt the recorders handed over");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the discarded CSV is gone");
        }
    }

    @Test
    void passesGoOnUntilTheMinimumTimeHasPassed() throws Exception {
        long minNanos = TimeUnit.MILLISECONDS.toNanos(50);
        InstrumentationWarmup.Result r =
                InstrumentationWarmup.run(List.of("peak"), dir, true, minNanos, TimeUnit.SECONDS.toNanos(30));
        assertTrue(r.nanos() >= minNanos, "ran " + r.nanos() + " ns");
        assertEquals((long) r.passes() * InstrumentationWarmup.PASS_ATTEMPTS, r.attempts());
        assertEquals(r.attempts(), r.rowsFormatted());
    }

    @Test
    void aRealScratchFileCapsTheAttemptsWhateverTheTimeRuleSays() throws Exception {
        // no /dev/null: the rows go to a file on disk, so the warm-up stops at the cap, not after 30 s
        InstrumentationWarmup.Result r = InstrumentationWarmup.run(
                List.of("startup", "peak"), dir, false, TimeUnit.SECONDS.toNanos(30), TimeUnit.SECONDS.toNanos(30));
        assertEquals(InstrumentationWarmup.SCRATCH_FILE_MAX_ATTEMPTS, r.attempts());
        assertEquals(r.attempts(), r.rowsFormatted());
        assertTrue(r.nanos() < TimeUnit.SECONDS.toNanos(30), "stopped by the cap, after " + r.nanos() + " ns");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void onlyTheFirstCallInAJvmWarmsUp() throws Exception {
        InstrumentationWarmup.runOnce(List.of("peak"), dir); // may or may not be the first in this JVM
        assertNull(InstrumentationWarmup.runOnce(List.of("peak"), dir));
    }
}
