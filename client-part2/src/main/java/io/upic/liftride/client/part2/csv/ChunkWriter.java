package io.upic.liftride.client.part2.csv;

import io.upic.liftride.client.engine.AttemptListener;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The one CSV writer of a run, an {@link AttemptListener.BackgroundTask} on the engine's thread: takes filled
 * chunks from the {@link ChunkPool}, shows each to an observer, writes its rows and gives the chunk back, so
 * memory stays bounded. Call {@link #open()}, then {@link #run}, then {@link #summary} after the engine joined
 * the thread. A failed write ends {@link #run}, thrown; the pool is always closed on the way out, so no worker
 * waits for a writer that is gone.
 */
public final class ChunkWriter implements AttemptListener.BackgroundTask {

    /** How long the writer parks on an empty queue; the engine unparks it at the end, so this never delays a run. */
    static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private static final int BUFFER_BYTES = 256 * 1024;

    private final Path file;
    private final ChunkPool pool;
    private final Consumer<AttemptChunk> observer;
    private final CsvRows rows;
    private final StreamOpener opener;

    // Written by the thread that runs run(); read after the engine joined it.
    private OutputStream out;
    private long rowsFormatted;
    private RuntimeException observerError;

    /**
     * What the writer did, read after the run.
     *
     * @param failure what {@link #run} threw (a failed write, a crash), or null
     */
    public record Summary(Path file, long rowsWritten, Throwable failure, RuntimeException observerError) {

        /** Whether every row handed over reached the file and the observer. */
        public boolean complete() {
            return failure == null && observerError == null;
        }
    }

    /** Opens the stream the rows of {@code file} go to: {@code Files::newOutputStream}, or in tests one that fails. */
    @FunctionalInterface
    public interface StreamOpener {
        OutputStream open(Path file) throws IOException;
    }

    /**
     * @param file       the CSV to create (replaced if it exists)
     * @param phaseNames phase names by index, for the phase column
     * @param pool       where filled chunks come from
     * @param observer   sees every chunk before its rows are written (on the writer thread)
     * @param opener     opens {@code file} for writing
     */
    public ChunkWriter(
            Path file, List<String> phaseNames, ChunkPool pool, Consumer<AttemptChunk> observer, StreamOpener opener) {
        this.file = Objects.requireNonNull(file, "file");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.opener = Objects.requireNonNull(opener, "opener");
        this.rows = new CsvRows(phaseNames, BUFFER_BYTES);
    }

    /** Creates the file and writes the header (before the run, so a bad path fails before any request). */
    public void open() throws IOException {
        out = opener.open(file);
        out.write(CsvRows.headerLine());
    }

    /** Writes chunks until the workers are done and the queue is empty; closes the file and the pool. */
    @Override
    public void run(BooleanSupplier workersDone) throws IOException {
        try (OutputStream sink = out) {
            boolean dirty = false;
            while (true) {
                AttemptChunk c = pool.poll();
                if (c != null) {
                    consume(c);
                    dirty = true;
                    continue;
                }
                if (workersDone.getAsBoolean()) {
                    while ((c = pool.poll()) != null) { // submitted before the last worker finished
                        consume(c);
                    }
                    break;
                }
                if (dirty) {
                    flush(); // the queue ran dry: put what we have on disk
                    dirty = false;
                }
                LockSupport.parkNanos(this, IDLE_PARK_NANOS);
            }
            flush(); // only here: after a failure the buffer may end in half a row
        } finally {
            pool.close(); // no worker may wait for this writer from here on, whatever happened to it
        }
    }

    /**
     * The writer's account, read after {@link #run} ended.
     *
     * @param failure what {@link #run} threw, or null
     */
    public Summary summary(Throwable failure) {
        return new Summary(file, rowsFormatted, failure, observerError);
    }

    private void consume(AttemptChunk c) throws IOException {
        try {
            try {
                observer.accept(c);
            } catch (RuntimeException e) { // the per-second buckets are the charts' business: keep writing
                if (observerError == null) {
                    observerError = e;
                }
            }
            rows.append(c, out);
            rowsFormatted += c.size();
        } finally {
            pool.release(c);
        }
    }

    private void flush() throws IOException {
        rows.flushTo(out);
        out.flush();
    }
}
