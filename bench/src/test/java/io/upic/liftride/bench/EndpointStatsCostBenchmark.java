package io.upic.liftride.bench;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.upic.liftride.server.operations.EndpointStats;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the server's per-request recording costs, apart from the network and Tomcat: {@link
 * EndpointStats#record} for the ride POST with metrics off (the {@code /statistics} counters only) and
 * on (also the Micrometer timer with its histogram, as {@code /metrics} serves it). Two threads, as
 * two request threads on a 2-core machine record into the same counters; scores in ns per request.
 * {@code bench/metrics_cost.py} relates the difference to the CPU a real request costs the server.
 *
 * <pre>
 * mvn -B -q -DskipTests package -pl bench -am
 * java -cp "$BENCH_CP" org.openjdk.jmh.Main EndpointStatsCostBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(2)
public class EndpointStatsCostBenchmark {
    private static final int LATENCIES = 4096; // a power of two: index by mask

    /** The statistics, shared by the threads as a web application's are. */
    @State(Scope.Benchmark)
    public static class Stats {
        EndpointStats off;
        EndpointStats on;

        @Setup
        public void setUp() {
            off = new EndpointStats();
            on = new EndpointStats(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        }
    }

    /** Each thread's latencies (0.3-3 ms) and position. */
    @State(Scope.Thread)
    public static class Latencies {
        final long[] nanos = new long[LATENCIES];
        int next;

        @Setup
        public void setUp() {
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < nanos.length; i++) {
                nanos[i] = 300_000 + random.nextLong(2_700_000);
            }
        }

        long next() {
            return nanos[next++ & (LATENCIES - 1)];
        }
    }

    @Benchmark
    public void metricsOff(Stats stats, Latencies latencies) {
        stats.off.record(Route.SKIER_DAY, HttpMethod.POST, 201, latencies.next());
    }

    @Benchmark
    public void metricsOn(Stats stats, Latencies latencies) {
        stats.on.record(Route.SKIER_DAY, HttpMethod.POST, 201, latencies.next());
    }
}
