package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synthetic run through the listener exactly as the engine drives it (recorders before the clock,
 * the background task on its own thread, one thread per worker, close() on that thread, the task
 * told and joined after the workers, onRunEnd last): every attempt becomes one CSV row, one histogram
 * value and one per-second count.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunRecordingTest {

    @TempDir
    Path dir;

    @Test
    void rowsWrittenEqualAttemptsMadeAcrossWorkersChunksAndRetries() throws Exception {
        LoadPlan plan = PhasePlan.fall2021().forRun(16, 3_001, 7); // uneven ranges: no worker fills whole chunks only
        RunRecording rec = recording(dir.resolve("t16"), plan);
        Map<ThreadAssignment, AttemptRecorder> recorders = new HashMap<>();
        for (PlannedPhase p : plan.phases()) {
            for (ThreadAssignment w : p.assignments()) {
                recorders.put(w, rec.recorder(w));
            }
        }
        AtomicBoolean workersDone = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            try {
                rec.backgroundTask().run(workersDone::get);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        writer.start();
        long origin = System.nanoTime();
        rec.onRunStart(plan, System.currentTimeMillis(), origin);

        long[] attemptsByPhase = new long[plan.phases().size()];
        List<Thread> threads = new ArrayList<>();
        for (Map.Entry<ThreadAssignment, AttemptRecorder> e : recorders.entrySet()) {
            ThreadAssignment w = e.getKey();
            AttemptRecorder r = e.getValue();
            int retries = w.threadIndex() % 3 == 0 ? w.requests() / 10 : 0; // some workers retry every 10th request
            synchronized (attemptsByPhase) {
                attemptsByPhase[w.phaseIndex()] += w.requests() + retries;
            }
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < w.requests(); i++) {
                        long start = origin + i * 100_000L;
                        if (retries > 0 && i % 10 == 0 && i / 10 < retries) {
                            r.onAttempt(1_700_000_000_000L + i, start, 2_000_000, 503, 1);
                            r.onAttempt(1_700_000_000_000L + i, start + 3_000_000, 1_000_000, 201, 2);
                        } else {
                            r.onAttempt(1_700_000_000_000L + i, start, 500_000 + i, 201, 1);
                        }
                    }
                } finally {
                    r.close();
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        workersDone.set(true);
        LockSupport.unpark(writer);
        writer.join();
        long attempts = 0;
        for (long a : attemptsByPhase) {
            attempts += a;
        }

        rec.onRunEnd(result(plan, attemptsByPhase, origin));

        assertTrue(rec.problems().isEmpty(), rec.problems().toString());
        assertEquals(attempts, rec.csv().rowsWritten());
        assertTrue(rec.csv().complete());
        List<String> lines = Files.readAllLines(dir.resolve("t16").resolve(CsvRows.FILE), StandardCharsets.US_ASCII);
        assertEquals(CsvRows.HEADER, lines.get(0));
        assertEquals(attempts, lines.size() - 1);
        assertEquals(attempts, rec.metrics().recordedAttempts());
        assertEquals(attempts, rec.seconds().totalAttempts());
        long retryRows = lines.stream().skip(1).filter(l -> l.contains(",503,")).count();
        assertEquals(attempts - rec.metrics().run().first().count(), retryRows);
        for (int k = 0; k < attemptsByPhase.length; k++) {
            String name = plan.phases().get(k).name();
            long rows = lines.stream()
                    .skip(1)
                    .filter(l -> l.split(",")[4].equals(name))
                    .count();
            assertEquals(attemptsByPhase[k], rows, "rows of phase " + name);
            assertEquals(
                    attemptsByPhase[k],
                    rec.metrics().phases().get(k).all().count(),
                    "histogram values of phase " + name);
        }
        assertTrue(rec.chunksAllocated() <= plan.totalThreads() + RunRecording.SPARE_CHUNKS);
    }

    /** Also the path where the engine never ran the task: the summary closes the file. */
    @Test
    void aRunWithoutAnyAttemptWritesJustTheHeader() throws Exception {
        LoadPlan plan = PhasePlan.fall2021().forRun(4, 100, 1);
        RunRecording rec = recording(dir.resolve("t4"), plan);
        for (PlannedPhase p : plan.phases()) {
            for (ThreadAssignment w : p.assignments()) {
                rec.recorder(w).close();
            }
        }
        long origin = System.nanoTime();
        rec.onRunStart(plan, System.currentTimeMillis(), origin);
        rec.onRunEnd(result(plan, new long[plan.phases().size()], origin));
        assertEquals(0, rec.csv().rowsWritten());
        assertEquals(
                List.of(CsvRows.HEADER), Files.readAllLines(dir.resolve("t4").resolve(CsvRows.FILE)));
        assertEquals(0, rec.metrics().recordedAttempts());
    }

    /** A recording to a real file whose writer must not fail. */
    private static RunRecording recording(Path dir, LoadPlan plan) {
        return new RunRecording(dir, plan, Files::newOutputStream, failure -> {
            throw new AssertionError("the CSV writer failed", failure);
        });
    }

    /** An engine-like account with the given attempts per phase (all requests successful). */
    static RunResult result(LoadPlan plan, long[] attemptsByPhase, long origin) {
        List<PhaseResult> phases = new ArrayList<>();
        for (PlannedPhase p : plan.phases()) {
            long a = attemptsByPhase[p.index()];
            phases.add(Fixtures.phase()
                    .index(p.index())
                    .name(p.name())
                    .threads(p.threads())
                    .requests(new Requests(p.requests(), p.requests(), 0, 0, a - p.requests(), a))
                    .latencyNanosSum(a)
                    .startNanos(origin)
                    .endNanos(origin + 1_000_000_000L)
                    .build());
        }
        return Fixtures.run(phases.toArray(PhaseResult[]::new))
                .planName(plan.planName())
                .numThreads(plan.numThreads())
                .startNanos(origin)
                .wallNanos(2_000_000_000L)
                .build();
    }
}
