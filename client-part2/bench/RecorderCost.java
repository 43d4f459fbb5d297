import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.part2.csv.AttemptChunk;
import io.upic.liftride.client.part2.csv.ChunkPool;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.metrics.SecondBuckets;
import io.upic.liftride.client.part2.metrics.WorkerRecorder;

import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What client-part2's instrumentation costs per attempt, in isolation from the network and the
 * server: the worker-side {@link WorkerRecorder#onAttempt} (histogram, totals, chunk stores, one
 * hand-off per chunk) against client-part1's {@link AttemptRecorder#NONE}, and the writer-side work
 * per row (per-second buckets, CSV formatting into a discarding stream). One thread, after a warm-up,
 * median of several timed passes. A micro-benchmark, not a test: run it by hand or through
 * overhead.py, which relates these nanoseconds to the CPU a real attempt costs.
 *
 * <pre>
 * java -cp client-part2/target/client-part2.jar client-part2/bench/RecorderCost.java [attemptsPerPass]
 * </pre>
 */
public final class RecorderCost {

    private static final int PASSES = 7;
    private static final int CHUNK_ROWS = 512;

    public static void main(String[] args) {
        int attempts = args.length > 0 ? Integer.parseInt(args[0]) : 5_000_000;
        if (attempts < CHUNK_ROWS) {
            throw new IllegalArgumentException("attemptsPerPass < " + CHUNK_ROWS + ": " + attempts);
        }
        long[] latencies = latencies(4096);

        double none = median(attempts, () -> recordPass(AttemptRecorder.NONE, null, attempts, latencies));
        double worker = median(attempts, () -> {
            ChunkPool pool = new ChunkPool(CHUNK_ROWS, 4);
            WorkerRecorder r = new WorkerRecorder(1, 7, pool);
            long sink = recordPass(r, pool, attempts, latencies);
            r.close();
            if (r.allHistogram().getTotalCount() != attempts) {
                throw new AssertionError("histogram lost values");
            }
            return sink;
        });

        AttemptChunk chunk = filledChunk(latencies);
        double buckets = median(attempts, () -> {
            SecondBuckets s = new SecondBuckets();
            s.setOrigin(0);
            for (int done = 0; done < attempts; done += CHUNK_ROWS) {
                s.accept(chunk);
            }
            return s.totalAttempts();
        });
        CountingStream sinkStream = new CountingStream();
        CsvRows rows = new CsvRows(List.of("startup", "peak", "cooldown"), 256 * 1024);
        double csv = median(attempts, () -> {
            try {
                for (int done = 0; done < attempts; done += CHUNK_ROWS) {
                    rows.append(chunk, sinkStream);
                }
                rows.flushTo(sinkStream);
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
            return sinkStream.bytes;
        });

        System.out.printf(Locale.ROOT, "attempts per pass: %d, passes: %d (median shown), chunk rows: %d, java %s%n",
                attempts, PASSES, CHUNK_ROWS, System.getProperty("java.version"));
        System.out.printf(Locale.ROOT, "worker: client-part1 recorder (NONE)   %6.1f ns/attempt%n", none);
        System.out.printf(Locale.ROOT, "worker: client-part2 WorkerRecorder     %6.1f ns/attempt (+%.1f ns)%n", worker, worker - none);
        System.out.printf(Locale.ROOT, "writer: per-second buckets              %6.1f ns/row%n", buckets);
        CountingStream one = new CountingStream();
        try {
            rows.append(chunk, one);
            rows.flushTo(one);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        System.out.printf(Locale.ROOT, "writer: CSV formatting                  %6.1f ns/row (%.1f bytes/row)%n", csv,
                (double) one.bytes / chunk.size());
        System.out.printf(Locale.ROOT, "total added per attempt                 %6.1f ns%n", worker - none + buckets + csv);
    }

    /** One pass of {@code attempts} calls, draining the pool per chunk as the writer would; returns a value to keep. */
    private static long recordPass(AttemptRecorder r, ChunkPool pool, int attempts, long[] latencies) {
        long sink = 0;
        int mask = latencies.length - 1;
        long epoch = 1_700_000_000_000L, start = 0;
        for (int i = 0; i < attempts; i++) {
            long lat = latencies[i & mask];
            r.onAttempt(epoch + (i >> 5), start, lat, 201, 1 + (i & 1023) / 1023);
            start += lat;
            if (pool != null && (i & (CHUNK_ROWS - 1)) == CHUNK_ROWS - 1) {
                for (AttemptChunk c; (c = pool.poll()) != null; ) {
                    sink += c.size();
                    pool.release(c);
                }
            }
        }
        return sink + start;
    }

    /** Latencies like a loaded run's: mostly 0.3-3 ms, a tail to 30 ms, in nanoseconds. */
    private static long[] latencies(int n) {
        SplittableRandom rnd = new SplittableRandom(42);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            double ms = rnd.nextInt(100) < 98 ? 0.3 + rnd.nextDouble() * 2.7 : 3 + rnd.nextDouble() * 27;
            v[i] = (long) (ms * 1_000_000);
        }
        return v;
    }

    private static AttemptChunk filledChunk(long[] latencies) {
        ChunkPool pool = new ChunkPool(CHUNK_ROWS, 1);
        AttemptChunk c = pool.acquire(1, 37);
        long start = 0;
        for (int i = 0; i < CHUNK_ROWS; i++) {
            long lat = latencies[i];
            c.add(1_700_000_000_000L + i, start, (int) (lat / 1000), i % 97 == 0 ? 503 : 201, i % 97 == 0 ? 2 : 1);
            start += lat / 64;
        }
        return c;
    }

    interface Pass {
        long run();
    }

    private static long blackhole;

    /** Median ns per attempt over {@link #PASSES} timed passes, after two untimed warm-up passes. */
    private static double median(int attempts, Pass pass) {
        for (int i = 0; i < 2; i++) {
            blackhole += pass.run();
        }
        double[] ns = new double[PASSES];
        for (int i = 0; i < PASSES; i++) {
            long t0 = System.nanoTime();
            blackhole += pass.run();
            ns[i] = (System.nanoTime() - t0) / (double) attempts;
        }
        java.util.Arrays.sort(ns);
        return ns[PASSES / 2];
    }

    /** Discards bytes, counting them. */
    private static final class CountingStream extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
