package io.upic.liftride.bench;

import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.part2.csv.AttemptChunk;
import io.upic.liftride.client.part2.csv.ChunkPool;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.metrics.WorkerRecorder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What client-part2's instrumentation costs per attempt, apart from the network and the server: on
 * the worker, {@link WorkerRecorder#onAttempt} (histogram, exact totals, five stores into a chunk, one
 * hand-off per chunk) against client-part1's {@link AttemptRecorder#NONE}; on the writer thread, per
 * row, the per-second buckets and the CSV formatting (into a stream that only counts bytes). Each
 * invocation is one chunk's worth of attempts or rows, so every score is in ns per attempt or row.
 * One thread; {@code bench/overhead.py} relates these to the CPU a real attempt costs.
 *
 * <pre>
 * mvn -B -q -DskipTests package -pl bench -am
 * java -cp "$BENCH_CP" org.openjdk.jmh.Main RecorderCostBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RecorderCostBenchmark {

    /** As client-part2's RunRecording: a worker hands a chunk to the writer every 512 attempts. */
    static final int CHUNK_ROWS = 512;

    private static final long EPOCH_MILLIS = 1_700_000_000_000L;
    private static final int LATENCIES = 4096; // a power of two: index by mask

    /** Latencies like a loaded run's: mostly 0.3-3 ms, 2% a tail to 30 ms, in nanoseconds. */
    static long[] latencies() {
        SplittableRandom rnd = new SplittableRandom(42);
        long[] v = new long[LATENCIES];
        for (int i = 0; i < v.length; i++) {
            double ms = rnd.nextInt(100) < 98 ? 0.3 + rnd.nextDouble() * 2.7 : 3 + rnd.nextDouble() * 27;
            v[i] = (long) (ms * 1_000_000);
        }
        return v;
    }

    /** A worker's side: its recorder, and the pool drained once per chunk as the writer would. */
    @State(Scope.Thread)
    public static class Worker {
        final long[] latencies = latencies();
        ChunkPool pool;
        WorkerRecorder recorder;
        long attempts;
        long startNanos;

        /** Fresh per iteration: a worker's histogram never holds more than one run's worth of values. */
        @Setup(Level.Iteration)
        public void newRecorder() {
            pool = new ChunkPool(CHUNK_ROWS, 4);
            recorder = new WorkerRecorder(1, 7, pool);
        }

        /** One chunk's worth of attempts through {@code r}; about one in 1,024 is a retry (attempt 2). */
        long record(AttemptRecorder r) {
            int mask = latencies.length - 1;
            long n = attempts;
            long start = startNanos;
            for (int i = 0; i < CHUNK_ROWS; i++, n++) {
                long latency = latencies[(int) n & mask];
                r.onAttempt(EPOCH_MILLIS + (n >> 5), start, latency, 201, (n & 1023) == 1023 ? 2 : 1);
                start += latency;
            }
            attempts = n;
            startNanos = start;
            return start;
        }

        /** What the writer does with the chunks handed over: takes them and gives them back. */
        long drain() {
            long rows = 0;
            for (AttemptChunk c; (c = pool.poll()) != null; ) {
                rows += c.size();
                pool.release(c);
            }
            return rows;
        }
    }

    /** The writer's side: one full chunk, formatted or bucketed again and again. */
    @State(Scope.Thread)
    public static class Writer {
        final AttemptChunk chunk = filledChunk(latencies());
        final CountingStream sink = new CountingStream();
        final CsvRows rows = new CsvRows(List.of("startup", "peak", "cooldown"), 256 * 1024);
        TimeBuckets buckets;

        /** Fresh per iteration, as per run. */
        @Setup(Level.Iteration)
        public void newBuckets() {
            buckets = new TimeBuckets();
            buckets.setOrigin(0);
        }

        /** A peak-phase chunk of a loaded run: 201s, a 503 retried now and then, 64 attempts a ms or so. */
        static AttemptChunk filledChunk(long[] latencies) {
            AttemptChunk c = new ChunkPool(CHUNK_ROWS, 1).acquire(1, 37);
            long start = 0;
            for (int i = 0; i < CHUNK_ROWS; i++) {
                boolean retry = i % 97 == 0;
                c.add(EPOCH_MILLIS + i, start, (int) (latencies[i] / 1000), retry ? 503 : 201, retry ? 2 : 1);
                start += latencies[i] / 64;
            }
            return c;
        }
    }

    @Benchmark
    @OperationsPerInvocation(CHUNK_ROWS)
    public long workerRecorderOfClientPart1(Worker w) {
        return w.record(AttemptRecorder.NONE) + w.drain();
    }

    @Benchmark
    @OperationsPerInvocation(CHUNK_ROWS)
    public long workerRecorderOfClientPart2(Worker w) {
        return w.record(w.recorder) + w.drain();
    }

    @Benchmark
    @OperationsPerInvocation(CHUNK_ROWS)
    public long writerTimeBuckets(Writer w) {
        w.buckets.accept(w.chunk);
        return w.buckets.totalAttempts();
    }

    @Benchmark
    @OperationsPerInvocation(CHUNK_ROWS)
    public long writerCsvFormatting(Writer w) throws IOException {
        w.rows.append(w.chunk, w.sink); // the 256 KiB buffer goes to the sink whenever it fills, as to the file
        return w.sink.bytes;
    }

    /** Discards bytes, counting them. */
    static final class CountingStream extends OutputStream {
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
