package io.upic.liftride.client.part2.csv;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The bounded circulation of {@link AttemptChunk}s between the workers and the one writer thread:
 * workers {@link #acquire} an empty chunk, fill it and {@link #submit} it; the writer
 * {@link #poll}s filled chunks and {@link #release}s them for reuse. At most {@code maxChunks}
 * chunks are ever allocated, so memory depends on the thread count, never on the number of
 * requests.
 *
 * <p>Lock-free: both queues are {@link ConcurrentLinkedQueue}s (a CAS per hand-off, once per
 * chunk, not per attempt). Their size is bounded by the allocation cap, not by the queue. Only
 * when every chunk is in use (the writer is behind by {@code maxChunks} chunks) does a worker wait
 * in {@link #acquire}.
 *
 * <p>Once the writer is gone ({@link #close()}, whether it finished or died), nothing waits any more:
 * chunks handed over are recycled unwritten and {@link #acquire} returns at once. Without that a
 * writer that died left every worker parked for good, and the run, its report and Ctrl-C with them.
 */
public final class ChunkPool {

    /** How long a stalled worker parks between looks at the free queue. */
    private static final long STALL_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final int chunkRows;
    private final int maxChunks;
    private final ConcurrentLinkedQueue<AttemptChunk> free = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<AttemptChunk> filled = new ConcurrentLinkedQueue<>();
    private final AtomicInteger allocated = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param chunkRows rows per chunk, >= 1
     * @param maxChunks chunks that may exist at once, >= 1; give at least one per worker thread plus
     *                  some slack so a worker never waits while the writer keeps up
     */
    public ChunkPool(int chunkRows, int maxChunks) {
        if (chunkRows < 1) {
            throw new IllegalArgumentException("chunkRows < 1: " + chunkRows);
        }
        if (maxChunks < 1) {
            throw new IllegalArgumentException("maxChunks < 1: " + maxChunks);
        }
        this.chunkRows = chunkRows;
        this.maxChunks = maxChunks;
    }

    /**
     * An empty chunk labelled with its worker; allocates only while under the cap, else reuses or waits
     * for the writer, but never once the pool is closed.
     */
    public AttemptChunk acquire(int phaseIndex, int threadIndex) {
        AttemptChunk c = free.poll();
        if (c == null) {
            if (allocated.incrementAndGet() <= maxChunks) {
                c = new AttemptChunk(chunkRows);
            } else {
                allocated.decrementAndGet();
                c = awaitFree();
            }
        }
        c.reset(phaseIndex, threadIndex);
        return c;
    }

    private AttemptChunk awaitFree() {
        AttemptChunk c;
        while ((c = free.poll()) == null) {
            if (closed) {
                // nothing will free a chunk now; this one holds rows that are dropped anyway, so it
                // does not count against the cap (a worker holds at most one)
                c = new AttemptChunk(chunkRows);
                break;
            }
            LockSupport.parkNanos(this, STALL_PARK_NANOS);
        }
        return c;
    }

    /** Hands a filled (or a worker's last, partly filled) chunk to the writer; after {@link #close()}, drops it. */
    public void submit(AttemptChunk chunk) {
        filled.offer(chunk);
        if (closed) { // checked after the offer, so a chunk that raced with close() is not left behind
            recycleFilled();
        }
    }

    /**
     * The writer is gone (done, or dead): from now on no {@link #acquire} waits, and chunks handed
     * over, and those still waiting, are recycled without being written. Idempotent; thread-safe.
     */
    public void close() {
        closed = true;
        recycleFilled();
    }

    private void recycleFilled() {
        for (AttemptChunk c; (c = filled.poll()) != null; ) {
            release(c);
        }
    }

    /** The next filled chunk in hand-off order, or null if none is waiting (writer side). */
    public AttemptChunk poll() {
        return filled.poll();
    }

    /** Gives a chunk back for reuse once its rows are written (writer side; also for an unused chunk). */
    public void release(AttemptChunk chunk) {
        chunk.size = 0;
        free.offer(chunk);
    }

    /** Chunks allocated so far (never more than the cap). */
    public int allocated() {
        return Math.min(allocated.get(), maxChunks);
    }
}
