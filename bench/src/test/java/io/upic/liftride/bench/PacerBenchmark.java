package io.upic.liftride.bench;

import io.upic.liftride.client.engine.Pacer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * How late, and at what CPU, client-part1's real {@link Pacer} returns for a spin margin M, with no
 * server: 64 threads, each on the open model's fixed schedule (3,000 sends/s in all, so one slot
 * every 21.33 ms per thread, the threads' first slots spread over one interval), each invocation
 * waiting for its thread's next slot with {@link Pacer#awaitUntil}. The client's margin is
 * {@code Pacer.SPIN_NANOS} (50 µs); the other values show what it trades: parking longer costs the
 * kernel's wake-up lateness, spinning longer costs CPU.
 *
 * <p>The score is sends per second (all threads); the offered rate divides it into achieved /
 * offered. The counters (sums over threads; divide by {@code sends}): {@code lateMicros} (so the mean
 * lateness), {@code within10us}, {@code within50us}, {@code within100us}, {@code within1ms} (the
 * share of sends at most that late) and {@code cpuMicros} (the pacing threads' own CPU, read with
 * {@code ThreadMXBean.getCurrentThreadCpuTime} after each send, which adds about a microsecond).
 * {@code bench/open_model.py} runs it and writes the table in data/open-model.md.
 *
 * <pre>
 * mvn -B -q -DskipTests package -pl bench -am
 * java -cp "$BENCH_CP" org.openjdk.jmh.Main PacerBenchmark -p spinMicros=0,20,50,80,150
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(1)
@Threads(PacerBenchmark.THREADS)
@State(Scope.Benchmark)
public class PacerBenchmark {

    /** The open-model run data/open-model.md measures: {@code --rate 3000} with 64 threads. */
    static final int THREADS = 64;

    private static final BooleanSupplier NEVER = () -> false;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** Pacer's spin margin M in microseconds. */
    @Param({"50"})
    public long spinMicros;

    /** Sends per second offered by all threads together. */
    @Param({"3000"})
    public double rate;

    long intervalNanos;
    long startNanos;

    /** Every thread's schedule starts from here, a little after the iteration's set-up. */
    @Setup(Level.Iteration)
    public void schedule() {
        intervalNanos = Math.round(THREADS * 1e9 / rate);
        startNanos = System.nanoTime() + 20_000_000L;
    }

    /** One thread's pacer and its next slot. */
    @State(Scope.Thread)
    public static class Slot {
        Pacer pacer;
        long intervalNanos;
        long nextNanos;

        @Setup(Level.Iteration)
        public void first(PacerBenchmark b, ThreadParams thread) {
            pacer = Pacer.withSpinMargin(b.spinMicros * 1_000);
            intervalNanos = b.intervalNanos;
            nextNanos = b.startNanos + b.intervalNanos * thread.getThreadIndex() / THREADS;
        }
    }

    /** What each thread's sends were like this iteration; JMH reports each field summed over threads. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Lateness {
        public long sends;
        public long lateMicros;
        public long within10us;
        public long within50us;
        public long within100us;
        public long within1ms;
        public long cpuMicros;
        long cpuStartNanos;

        @Setup(Level.Iteration)
        public void clear() {
            sends = 0;
            lateMicros = 0;
            within10us = 0;
            within50us = 0;
            within100us = 0;
            within1ms = 0;
            cpuMicros = 0;
            cpuStartNanos = CPU.getCurrentThreadCpuTime();
        }

        void record(long lateNanos) {
            sends++;
            lateMicros += lateNanos / 1_000;
            within10us += lateNanos <= 10_000 ? 1 : 0;
            within50us += lateNanos <= 50_000 ? 1 : 0;
            within100us += lateNanos <= 100_000 ? 1 : 0;
            within1ms += lateNanos <= 1_000_000 ? 1 : 0;
            cpuMicros = (CPU.getCurrentThreadCpuTime() - cpuStartNanos) / 1_000;
        }
    }

    /** Waits for this thread's next slot, as a worker does before each send; returns how late it was. */
    @Benchmark
    public long pacedSend(Slot slot, Lateness lateness) {
        long late = slot.pacer.awaitUntil(slot.nextNanos, NEVER);
        slot.nextNanos += slot.intervalNanos;
        lateness.record(late);
        return late;
    }
}
