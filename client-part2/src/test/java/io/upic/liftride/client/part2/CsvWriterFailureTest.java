package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.LoadEngine;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CSV writer fails mid-run, on client-part1's real engine with instant senders: the workers fill
 * the recording pool much faster than any writer drains it, so once the writer is gone they need
 * every chunk back. The run must stop, promptly, with every worker ended normally and the failure
 * reported; it must never wait for a writer that will not come back.
 */
// A worker parked for good is a failure, not a stuck build (parkNanos ignores the timeout's interrupt).
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CsvWriterFailureTest {

    /** The sink takes the header and at least this much more, then fails. */
    private static final long BYTES_BEFORE_FAILURE = 10_000;

    @TempDir
    Path dir;

    @Test
    void aWriterThatDiesStopsTheRunInsteadOfLeavingEveryWorkerWaitingForAChunk() throws Exception {
        assertRunStopsAndSays(new IllegalStateException("injected: formatting broke"), "CSV writer crashed: ");
    }

    @Test
    void aFullDiskStopsTheRunAtOnceInsteadOfDroppingRowsToTheEnd() throws Exception {
        assertRunStopsAndSays(new IOException("No space left on device"), "CSV write failed: ");
    }

    /**
     * 360,000 attempts on 16 threads against a CSV sink that throws {@code failure} after a few rows:
     * the run stops early, {@code failure} is passed on once and is among the recording's problems.
     */
    private void assertRunStopsAndSays(Throwable failure, String problemPrefix) throws Exception {
        LoadPlan plan = PhasePlan.fall2021().forRun(16, 20_000, 20);
        AtomicReference<LoadEngine> engine = new AtomicReference<>();
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        RunRecording recording = new RunRecording(
                dir.resolve("t16"), plan, file -> new FailingStream(Files.newOutputStream(file), failure), f -> {
                    reported.add(f);
                    engine.get().stop();
                });
        LoadEngine e =
                LoadEngine.builder(plan, new Instant201()).listener(recording).build();
        engine.set(e);

        RunResult result = e.run();

        assertTrue(result.stopped(), "the run stopped");
        assertTrue(
                result.requests().notSent() > 0,
                "stopped before the end: " + result.requests().notSent() + " not sent");
        assertEquals(List.of(failure), reported);
        assertEquals(List.of(), result.problems(), "every worker ended normally");
        assertEquals(
                result.requests().planned(),
                result.requests().successful()
                        + result.requests().failed()
                        + result.requests().notSent());
        long attempts = result.requests().attempts();
        assertTrue(recording.csv().rowsWritten() < attempts, "rows after the failure are lost, and said to be");
        assertEquals(attempts, recording.metrics().recordedAttempts(), "the histograms still hold every attempt");
        assertTrue(recording.problems().contains(problemPrefix + failure), recording.problems()::toString);
    }

    /** Passes writes through until more than {@link #BYTES_BEFORE_FAILURE} bytes have gone, then throws. */
    private static final class FailingStream extends FilterOutputStream {
        private final Throwable failure;
        private long written;

        FailingStream(OutputStream out, Throwable failure) {
            super(out);
            this.failure = failure;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (written > BYTES_BEFORE_FAILURE) {
                if (failure instanceof IOException io) {
                    throw io;
                }
                throw (RuntimeException) failure;
            }
            written += len;
            out.write(b, off, len);
        }
    }

    /** Answers 201 at once: the workers outrun the writer by far. */
    private static final class Instant201 implements RideSenderFactory {
        @Override
        public RideSender create() {
            return (resortId, seasonId, dayId, skierId, liftId, minute, waitTime, rideKey) -> 201;
        }

        @Override
        public void close() {}
    }
}
