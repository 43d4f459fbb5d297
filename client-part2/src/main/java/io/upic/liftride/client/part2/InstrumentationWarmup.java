package io.upic.liftride.client.part2;

import io.upic.liftride.client.part2.csv.ChunkPool;
import io.upic.liftride.client.part2.csv.ChunkWriter;
import io.upic.liftride.client.part2.metrics.SecondBuckets;
import io.upic.liftride.client.part2.metrics.WorkerRecorder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * With {@code --jit-warmup}: drives client-part2's own recording code with synthetic attempts, once per
 * JVM and before the first run's clock starts: {@link WorkerRecorder}s fed from a loop, and a real
 * {@link ChunkWriter} on its own thread formatting their chunks into a discarded file. Thread-safe; only
 * the first call does any work. Nothing here touches a run's counts or files.
 *
 * <p>Why: client-part1 sends warm-up requests before its clock so the HTTP path is compiled when the run
 * starts; for a fair comparison of the two clients' wall times the instrumentation needs the same.
 * Measured with JFR on a {@code -t 64} run, its code otherwise ran interpreted and in C1 for most of the
 * run (C2 compiled the CSV formatter seconds before the end), and 150-320 ms of compiler time fell inside
 * the measured wall time, on the cores the client shares with the server: more than the writer thread
 * itself uses. With this warm-up, about 40 ms (bench/jit_in_run.py). No end-to-end number shows it
 * changing a run's result (two runs of the same code differ by up to 20% here), hence opt-in, for the
 * benchmark that compares the clients.
 *
 * <p>What it deliberately leaves alone: client-part1's engine code ({@code RetryingSender},
 * {@code Worker}). Warming it here would spare client-part2 recompilations that client-part1 pays
 * in its run, and so hide instrumentation cost in the comparison of the two.
 *
 * <p>The writer is the real class on a real file stream (the compiler specialises on the stream's
 * type), and the loop that feeds the recorders runs once per chunk around a small method: a driver
 * that looped per attempt got one big compilation of its own, with everything inlined, that kept the
 * compiler busy into the run and left the methods the run calls uncompiled.
 */
final class InstrumentationWarmup {

    /** Chunks per timed pass. */
    static final int PASS_CHUNKS = 80;
    /** Attempts per timed pass (~41k): enough trips through every loop for the JIT's tiers (thresholds are ~10-15k). */
    static final int PASS_ATTEMPTS = PASS_CHUNKS * RunRecording.CHUNK_ROWS;
    /** The warm-up runs at least this long: C2 compiles in the background, behind the baseline's own queue. */
    static final long MIN_NANOS = 250_000_000L;
    /** ... and at most this long, however noisy the machine. */
    static final long MAX_NANOS = 2_000_000_000L;
    /**
     * Attempts at most when the rows go to a real scratch file (no {@code /dev/null}): ~10 MB on disk,
     * still 20 times the compiler's thresholds.
     */
    static final long SCRATCH_FILE_MAX_ATTEMPTS = 6L * PASS_ATTEMPTS;
    /**
     * Chunks the warm-up's pool may hold: two passes' worth, so a pass never waits for the writer
     * (pass times then measure the recording code, not the writer's pace), and one more per phase
     * for the chunks the recorders hold.
     */
    private static final int POOL_CHUNKS = 2 * PASS_CHUNKS + 8;
    /**
     * One in this many attempts goes straight to the recorder as a failed retry, so those branches are compiled too.
     */
    private static final int FAILURE_EVERY = 101;

    private static boolean done;

    private InstrumentationWarmup() {}

    /**
     * What the warm-up did.
     *
     * @param attempts      synthetic attempts recorded
     * @param rowsFormatted rows the writer formatted (equals attempts unless the writer failed)
     * @param passes        timed passes of {@link #PASS_ATTEMPTS}
     * @param nanos         its duration
     * @param lastPassNanos the last pass, to compare with {@code bestPassNanos}
     */
    record Result(long attempts, long rowsFormatted, int passes, long nanos, long lastPassNanos, long bestPassNanos) {}

    /**
     * Warms up once per JVM: passes of {@link #PASS_ATTEMPTS} until at least {@link #MIN_NANOS} have
     * gone by and the last pass is within 25% of the fastest (the compiled code is in place), or
     * {@link #MAX_NANOS} have gone by.
     *
     * @param scratchDir where to put the discarded CSV when there is no {@code /dev/null}
     * @return what it did, or null if an earlier call did the work
     * @throws IOException when the discarded CSV cannot be created
     */
    static synchronized Result runOnce(List<String> phaseNames, Path scratchDir) throws IOException {
        if (done) {
            return null;
        }
        done = true;
        return run(phaseNames, scratchDir, true, MIN_NANOS, MAX_NANOS);
    }

    /**
     * One warm-up, whatever ran before.
     *
     * @param preferDevNull write to {@code /dev/null} where it exists, else to a file in
     *                      {@code scratchDir} that is deleted afterwards
     */
    static Result run(List<String> phaseNames, Path scratchDir, boolean preferDevNull, long minNanos, long maxNanos)
            throws IOException {
        Path devNull = Path.of("/dev/null");
        boolean useDevNull = preferDevNull && Files.isWritable(devNull);
        if (useDevNull) {
            return drive(phaseNames, devNull, minNanos, maxNanos, Long.MAX_VALUE);
        }
        Path file = Files.createTempFile(scratchDir, "warmup-", ".csv");
        file.toFile().deleteOnExit(); // should the JVM be stopped half-way
        try {
            return drive(phaseNames, file, minNanos, maxNanos, SCRATCH_FILE_MAX_ATTEMPTS);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Passes until the time rule says stop, {@code maxAttempts} are reached, or the writer thread has
     * died (it keeps its failure in its summary); the writer is told, unparked and joined in any case.
     */
    private static Result drive(List<String> phaseNames, Path file, long minNanos, long maxNanos, long maxAttempts)
            throws IOException {
        List<String> names = phaseNames.isEmpty() ? List.of("warmup") : phaseNames;
        ChunkPool pool = new ChunkPool(RunRecording.CHUNK_ROWS, POOL_CHUNKS);
        SecondBuckets seconds = new SecondBuckets();
        ChunkWriter writer = new ChunkWriter(file, names, pool, seconds);
        WorkerRecorder[] recorders = new WorkerRecorder[names.size()];
        for (int k = 0; k < recorders.length; k++) {
            recorders[k] = new WorkerRecorder(k, k, pool);
        }
        AtomicBoolean producerDone = new AtomicBoolean();
        Thread writerThread = new Thread(() -> writer.run(producerDone::get), "liftride-warmup-writer");
        writerThread.setDaemon(true);
        long t0 = System.nanoTime();
        long attempts = 0, best = Long.MAX_VALUE, last = 0;
        int passes = 0;
        boolean started = false;
        ChunkWriter.Summary s;
        try {
            writer.open();
            seconds.setOrigin(t0);
            writerThread.start();
            started = true;
            // the pool holds two passes, so a pass can only stall if the writer died before the one
            // before it was drained; checking here, between passes, is therefore enough
            while (writerThread.isAlive()) {
                long p0 = System.nanoTime();
                attempts += pass(recorders);
                long now = System.nanoTime();
                last = now - p0;
                best = Math.min(best, last);
                passes++;
                long elapsed = now - t0;
                if (elapsed >= maxNanos
                        || attempts >= maxAttempts
                        || (elapsed >= minNanos && last <= best + best / 4)) {
                    break;
                }
            }
        } finally {
            for (WorkerRecorder r : recorders) {
                r.close();
            }
            producerDone.set(true);
            if (started) {
                LockSupport.unpark(writerThread);
                joinUninterruptibly(writerThread);
            }
            s = writer.summary(); // closes the file whatever happened
        }
        return new Result(
                attempts, s.rowsWritten(), passes, System.nanoTime() - t0, last, best == Long.MAX_VALUE ? 0 : best);
    }

    /** One pass: {@link #PASS_ATTEMPTS} attempts spread over the phases' recorders in chunk-sized runs. */
    private static long pass(WorkerRecorder[] recorders) {
        int rows = RunRecording.CHUNK_ROWS;
        for (int c = 0; c < PASS_CHUNKS; c++) {
            recordRun(recorders[c % recorders.length], c * rows, rows);
        }
        return PASS_ATTEMPTS;
    }

    /** {@code n} synthetic attempts numbered from {@code first}: 0.15-9 ms, mostly 201s, some failed retries. */
    private static void recordRun(WorkerRecorder r, int first, int n) {
        for (int i = first, end = first + n; i < end; i++) {
            long latencyNanos = 150_000L + (i * 7_919L) % 9_000_000L;
            boolean failed = i % FAILURE_EVERY == 0; // so the failure and retry branches are compiled too
            r.onAttempt(
                    System.currentTimeMillis(), System.nanoTime(), latencyNanos, failed ? 503 : 201, failed ? 2 : 1);
        }
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
