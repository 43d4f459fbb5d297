package io.upic.liftride.client.part2;

import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.csv.ChunkPool;
import io.upic.liftride.client.part2.csv.ChunkWriter;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.metrics.WorkerRecorder;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The instrumentation of one run, plugged into client-part1's engine as its {@link AttemptListener}: a {@link
 * WorkerRecorder} per worker, one {@link ChunkWriter} streaming {@code requests.csv} and feeding the {@link
 * TimeBuckets}, and the merge into {@link RunMetrics} after the engine joined everything. Only {@link
 * WorkerRecorder#onAttempt} runs on the request path. A writer failure stops the run.
 */
final class RunRecording implements AttemptListener {

    /** Rows per chunk: ~12 KB of primitives; a worker hands one over every 512 attempts. */
    static final int CHUNK_ROWS = 512;
    /** Chunks beyond one per worker thread that may wait for the writer before a worker has to wait. */
    static final int SPARE_CHUNKS = 256;

    private final Path dir;
    private final ChunkPool pool;
    private final TimeBuckets seconds = new TimeBuckets();
    private final ChunkWriter writer;
    private final List<WorkerRecorder> recorders = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Consumer<Throwable> onWriterFailure;
    /** Completes when the writer ends: normally, or with what stopped it short of writing every row. */
    private final CompletableFuture<Void> written = new CompletableFuture<>();

    private final boolean byOperation;
    private ChunkWriter.Summary csv;
    private RunMetrics metrics;
    private long mergeNanos;

    /**
     * Creates {@code dir} and its CSV with the header.
     *
     * @param csvOpener       opens the CSV file ({@code Files::newOutputStream}; tests make it fail)
     * @param onWriterFailure called once, on the writer's thread, with what stopped the writer
     *                        before it wrote every row; it should stop the run
     */
    RunRecording(Path dir, LoadPlan plan, ChunkWriter.StreamOpener csvOpener, Consumer<Throwable> onWriterFailure) {
        this(dir, plan, csvOpener, onWriterFailure, false);
    }

    /** As above; {@code byOperation}: keep each operation's latencies (a run with --mix). */
    RunRecording(
            Path dir,
            LoadPlan plan,
            ChunkWriter.StreamOpener csvOpener,
            Consumer<Throwable> onWriterFailure,
            boolean byOperation) {
        this.dir = dir;
        this.byOperation = byOperation;
        this.onWriterFailure = onWriterFailure;
        this.pool = new ChunkPool(CHUNK_ROWS, plan.totalThreads() + SPARE_CHUNKS);
        List<String> phaseNames = plan.phases().stream().map(PlannedPhase::name).toList();
        Path csvFile = dir.resolve(CsvRows.FILE);
        try {
            Files.createDirectories(dir);
            this.writer = new ChunkWriter(csvFile, phaseNames, pool, seconds, csvOpener);
            writer.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + csvFile, e);
        }
    }

    @Override
    public AttemptRecorder recorder(ThreadAssignment assignment) {
        WorkerRecorder r = new WorkerRecorder(assignment.phaseIndex(), assignment.threadIndex(), pool, byOperation);
        recorders.add(r);
        return r;
    }

    /** The CSV writer, run by the engine; its failure is passed on at once and kept in {@link #written}. */
    @Override
    public BackgroundTask backgroundTask() {
        return workersDone -> {
            try {
                writer.run(workersDone);
                written.complete(null);
            } catch (Throwable t) {
                written.completeExceptionally(t);
                onWriterFailure.accept(t);
            }
        };
    }

    @Override
    public void onRunStart(LoadPlan plan, long epochMillis, long nanos) {
        seconds.setOrigin(nanos);
    }

    @Override
    public void onRunEnd(RunResult result) {
        // Every worker closed its recorder (handing over its last chunk) before being joined, and the
        // engine joined the writer after the workers: the CSV is complete and closed here.
        Throwable failure = written.handle((ok, thrown) -> thrown).getNow(null);
        csv = writer.summary(failure);
        if (failure instanceof IOException) {
            problems.add("CSV write failed: " + failure);
        } else if (failure != null) {
            problems.add("CSV writer crashed: " + failure);
        }
        if (csv.observerError() != null) {
            problems.add("per-second buckets failed: " + csv.observerError());
        }
        long t0 = System.nanoTime();
        try {
            metrics = RunMetrics.merge(recorders, result);
        } catch (RuntimeException e) {
            problems.add("merging the histograms failed: " + e);
        }
        mergeNanos = System.nanoTime() - t0;
    }

    /** Time {@link #onRunEnd} spent merging the workers' histograms (part of the report time). */
    long mergeNanos() {
        return mergeNanos;
    }

    Path dir() {
        return dir;
    }

    TimeBuckets seconds() {
        return seconds;
    }

    /** Null until {@link #onRunEnd}, or if the merge failed. */
    RunMetrics metrics() {
        return metrics;
    }

    /** Null until {@link #onRunEnd}. */
    ChunkWriter.Summary csv() {
        return csv;
    }

    /** Chunks the pool allocated, for tests. */
    int chunksAllocated() {
        return pool.allocated();
    }

    List<String> problems() {
        return problems;
    }
}
