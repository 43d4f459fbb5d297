package io.upic.liftride.client.part2.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChunkPoolTest {

    @Test
    void aReleasedChunkIsReusedInsteadOfAllocatingAnother() {
        ChunkPool pool = new ChunkPool(4, 10);
        AttemptChunk c = pool.acquire(1, 2);
        c.add(1, 1, 1, 201, 1);
        pool.submit(c);
        assertSame(c, pool.poll());
        pool.release(c);
        AttemptChunk again = pool.acquire(3, 4);
        assertSame(c, again);
        assertEquals(0, again.size());
        assertEquals(3, again.phaseIndex());
        assertEquals(4, again.threadIndex());
        assertEquals(1, pool.allocated());
    }

    @Test
    void manyWorkersStreamingAMillionRowsNeverAllocateMoreThanTheCap() throws Exception {
        int workers = 8;
        int rowsPerWorker = 125_000;
        int cap = workers + 4;
        ChunkPool pool = new ChunkPool(100, cap);
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong consumed = new AtomicLong();
        Thread writer = new Thread(() -> {
            while (true) {
                AttemptChunk c = pool.poll();
                if (c == null) {
                    if (done.get() && (c = pool.poll()) == null) {
                        return;
                    }
                    if (c == null) {
                        Thread.onSpinWait();
                        continue;
                    }
                }
                consumed.addAndGet(c.size());
                pool.release(c);
            }
        });
        writer.start();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            int id = w;
            Thread t = new Thread(() -> {
                AttemptChunk c = null;
                for (int i = 0; i < rowsPerWorker; i++) {
                    if (c == null) {
                        c = pool.acquire(0, id);
                    }
                    if (c.add(i, i, i, 201, 1)) {
                        pool.submit(c);
                        c = null;
                    }
                }
                if (c != null) {
                    pool.submit(c);
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        done.set(true);
        writer.join();
        assertEquals((long) workers * rowsPerWorker, consumed.get());
        assertTrue(pool.allocated() <= cap, "allocated " + pool.allocated() + " > cap " + cap);
        // 10,000 chunks went round; memory stayed at the cap
        assertTrue(pool.allocated() >= 1);
    }

    @Test
    void whenEveryChunkIsInUseAWorkerWaitsForTheWriterAndTheWaitIsCounted() throws Exception {
        ChunkPool pool = new ChunkPool(1, 2);
        AttemptChunk a = pool.acquire(0, 0);
        AttemptChunk b = pool.acquire(0, 1);
        assertEquals(2, pool.allocated());
        AtomicBoolean got = new AtomicBoolean();
        Thread worker = waitingAcquire(pool, got);
        pool.release(a); // the writer frees a chunk
        worker.join(5_000);
        assertTrue(got.get());
        assertEquals(2, pool.allocated());
        pool.release(b);
    }

    @Test
    void onceTheWriterIsGoneAWaitingWorkerGoesOnAndHandedOverChunksAreRecycledUnwritten() throws Exception {
        ChunkPool pool = new ChunkPool(1, 2);
        AttemptChunk a = pool.acquire(0, 0);
        a.add(1, 1, 1, 201, 1);
        pool.submit(a); // waiting for a writer that will never take it
        pool.acquire(0, 1);
        AtomicBoolean got = new AtomicBoolean();
        Thread worker = waitingAcquire(pool, got);

        pool.close();
        worker.join(5_000);
        assertTrue(got.get(), "no wait once the pool is closed");
        assertNull(pool.poll(), "what waited for the writer was recycled");
        AttemptChunk c = pool.acquire(0, 3);
        c.add(2, 2, 2, 201, 1);
        pool.submit(c);
        assertNull(pool.poll(), "a chunk handed over after close is not queued for a writer");
        assertSame(c, pool.acquire(0, 4), "but reused");
        assertEquals(2, pool.allocated());
    }

    /** A worker that acquires a chunk from a pool whose chunks are all in use: it must be waiting after 200 ms. */
    private static Thread waitingAcquire(ChunkPool pool, AtomicBoolean got) throws InterruptedException {
        Thread worker = new Thread(() -> {
            pool.acquire(0, 2);
            got.set(true);
        });
        worker.start();
        worker.join(200);
        assertTrue(worker.isAlive(), "the acquire waits: every chunk is in use");
        return worker;
    }
}
