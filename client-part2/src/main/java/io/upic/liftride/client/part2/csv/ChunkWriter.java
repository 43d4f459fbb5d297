package io.upic.liftride.client.part2.csv;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The one writer thread of a run: takes filled chunks from the {@link ChunkPool}, shows each to an
 * observer (the per-second buckets), formats its rows into the CSV and gives the chunk back. The
 * file is written while the run goes (the row buffer is written out whenever it fills, and whenever
 * the queue runs dry), so memory stays bounded and a Ctrl-C loses nothing already handed over.
 *
 * <p><b>Why a thread outside client-part1's engine:</b> the engine owns the <em>load</em> threads
 * and never lets a listener run code on a thread it did not create except the workers' own calls.
 * Formatting and disk I/O must stay off the workers (they would add to the measured wall time),
 * and the engine has no I/O thread to lend, so this class creates exactly one daemon thread per run,
 * started before the run's clock ({@link #start()}) and joined after every worker has been joined
 * ({@link #finish()}), in client-part2's own lifecycle ({@code RunRecording}). It never touches
 * engine state.
 *
 * <p>{@link #start()} and {@link #finish()} are called once each, from the thread that runs the engine.
 */
public final class ChunkWriter {

    /** How long the writer parks when the queue is empty. */
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final int BUFFER_BYTES = 256 * 1024;

    private final Path file;
    private final ChunkPool pool;
    private final Consumer<AttemptChunk> observer;
    private final CsvRows rows;
    private final Thread thread;

    private volatile boolean closing;

    // Written by the writer thread only; read after join().
    private OutputStream out;
    private long rowsFormatted;
    private long chunks;
    private long bytes;
    private IOException ioError;
    private RuntimeException observerError;
    private Throwable crash;
    private long drainNanos;

    /** What the writer did, read after {@link #finish()}. */
    public record Summary(Path file, long rowsWritten, long chunks, long bytes, IOException ioError,
                          RuntimeException observerError, Throwable crash, long drainNanos) {

        /** Whether every row handed over reached the file and the observer. */
        public boolean complete() {
            return ioError == null && observerError == null && crash == null;
        }
    }

    /**
     * @param file       the CSV to create (replaced if it exists)
     * @param phaseNames phase names by index, for the phase column
     * @param pool       where filled chunks come from
     * @param observer   sees every chunk before its rows are written (on the writer thread)
     */
    public ChunkWriter(Path file, List<String> phaseNames, ChunkPool pool, Consumer<AttemptChunk> observer) {
        this.file = Objects.requireNonNull(file, "file");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.rows = new CsvRows(phaseNames, BUFFER_BYTES);
        this.thread = new Thread(this::loop, "liftride-csv-writer");
        this.thread.setDaemon(true); // never keeps the JVM alive; finish() joins it on the normal path
    }

    /** Creates the file, writes the header and starts the writer thread. */
    public void start() throws IOException {
        out = Files.newOutputStream(file);
        byte[] header = CsvRows.headerLine();
        out.write(header);
        thread.start();
    }

    /**
     * Call after every worker has handed over its last chunk: drains what is queued, closes the file
     * and stops the thread.
     */
    public Summary finish() {
        long t0 = System.nanoTime();
        closing = true;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the rows are worth the wait: the writer only has queued chunks left
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        drainNanos = System.nanoTime() - t0;
        try {
            bytes = Files.size(file);
        } catch (IOException e) {
            bytes = -1;
        }
        return new Summary(file, rowsFormatted, chunks, bytes, ioError, observerError, crash, drainNanos);
    }

    private void loop() {
        try {
            boolean dirty = false;
            while (true) {
                AttemptChunk c = pool.poll();
                if (c != null) {
                    consume(c);
                    dirty = true;
                    continue;
                }
                if (closing) {
                    while ((c = pool.poll()) != null) consume(c); // everything submitted before closing
                    break;
                }
                if (dirty) {
                    flush(); // the queue ran dry: put what we have on disk
                    dirty = false;
                }
                LockSupport.parkNanos(this, IDLE_PARK_NANOS);
            }
        } catch (Throwable t) {
            crash = t;
        } finally {
            close();
        }
    }

    private void consume(AttemptChunk c) {
        try {
            try {
                observer.accept(c);
            } catch (RuntimeException e) {
                if (observerError == null) observerError = e;
            }
            if (ioError == null) {
                try {
                    rows.append(c, out);
                    rowsFormatted += c.size();
                } catch (IOException e) {
                    ioError = e;
                }
            }
            chunks++;
        } finally {
            pool.release(c);
        }
    }

    private void flush() {
        if (ioError != null) return;
        try {
            rows.flushTo(out);
            out.flush();
        } catch (IOException e) {
            ioError = e;
        }
    }

    private void close() {
        flush();
        try {
            out.close();
        } catch (IOException e) {
            if (ioError == null) ioError = e;
        }
    }
}
