package io.upic.liftride.client.part2.csv;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The bounded circulation of {@link AttemptChunk}s between the workers and the one writer: workers {@link
 * #acquire} and {@link #submit}, the writer {@link #poll}s and {@link #release}s; at most {@code maxChunks} exist.
 * Lock-free except that {@link #acquire} waits when every chunk is in use. After {@link #close()} nothing waits
 * and chunks are recycled unwritten, so a dead writer cannot park the workers.
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

    /** An empty chunk for a worker: allocated under the cap, else reused or waited for, unless closed. */
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

    /** The writer is gone: no {@link #acquire} waits and chunks are recycled unwritten. Idempotent; thread-safe. */
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
