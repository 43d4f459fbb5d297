package io.upic.liftride.server.operations;

import com.google.gson.annotations.SerializedName;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Server-side latency per endpoint (route template and method) for {@code /statistics} and, when metrics are on,
 * a Micrometer timer per route, method and status for {@code /metrics}. Thread-safe and lock-free; recording
 * neither allocates nor looks anything up in a map (accumulators and timers are found by array index).
 */
public final class EndpointStats {
    /** The ServletContext attribute under which the web application keeps its statistics. */
    public static final String ATTRIBUTE = EndpointStats.class.getName();

    /** HTTP statuses are 100..599; index = status - 100. */
    private static final int STATUSES = 500;

    private final Accumulator[][] timers = new Accumulator[Route.values().length][HttpMethod.values().length];
    /** Null when metrics are off. */
    private final MeterRegistry registry;

    /** Statistics for {@code /statistics} only (metrics off). */
    public EndpointStats() {
        this(null);
    }

    /** Statistics that also record into {@code registry}'s request timers; null: metrics off. */
    public EndpointStats(MeterRegistry registry) {
        this.registry = registry;
        for (Route route : Route.values()) {
            for (HttpMethod method : route.methods()) {
                timers[route.ordinal()][method.ordinal()] = new Accumulator(registry == null ? null : STATUSES);
            }
        }
    }

    /** Records one answered request; a method the route does not allow (405) is ignored. */
    public void record(Route route, HttpMethod method, int status, long nanos) {
        Accumulator timer = timers[route.ordinal()][method.ordinal()];
        if (timer != null) {
            timer.count.increment();
            timer.totalNanos.add(nanos);
            timer.maxNanos.accumulate(nanos);
            if (timer.byStatus != null && status >= 100 && status < 100 + STATUSES) {
                meter(timer, route, method, status).record(nanos, TimeUnit.NANOSECONDS);
            }
        }
    }

    private Timer meter(Accumulator timer, Route route, HttpMethod method, int status) {
        Timer meter = timer.byStatus.get(status - 100);
        if (meter == null) { // once per route, method and status; registering again returns the same timer
            meter = Metrics.requestTimer(registry, route.template(), method.name(), status);
            timer.byStatus.set(status - 100, meter);
        }
        return meter;
    }

    /** The endpoints that answered at least one request, in route order. Each is consistent only with itself. */
    public List<EndpointStat> snapshot() {
        List<EndpointStat> stats = new ArrayList<>();
        for (Route route : Route.values()) {
            for (HttpMethod method : route.methods()) {
                Accumulator timer = timers[route.ordinal()][method.ordinal()];
                long count = timer.count.sum();
                if (count > 0) {
                    stats.add(EndpointStat.of(
                            route.template(), method.name(), count, timer.totalNanos.sum(), timer.maxNanos.get()));
                }
            }
        }
        return stats;
    }

    /**
     * One endpoint's numbers as {@code /statistics} writes them (its JSON keys); immutable. {@code mean} is rounded,
     * {@code max} rounded up so that a slow request never reports as 0 ms.
     */
    public record EndpointStat(
            @SerializedName("URL") String url,
            String operation,
            int mean,
            int max,
            long meanMicros,
            long maxMicros,
            long count) {
        static EndpointStat of(String url, String operation, long count, long totalNanos, long maxNanos) {
            return new EndpointStat(
                    url,
                    operation,
                    (int) Math.round(totalNanos / (double) count / 1_000_000.0),
                    (int) Math.min(Integer.MAX_VALUE, (maxNanos + 999_999) / 1_000_000),
                    Math.round(totalNanos / (double) count / 1_000.0),
                    (maxNanos + 999) / 1_000,
                    count);
        }
    }

    private static final class Accumulator {
        final LongAdder count = new LongAdder();
        final LongAdder totalNanos = new LongAdder();
        final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);
        /** The Micrometer timer per status; null when metrics are off. */
        final AtomicReferenceArray<Timer> byStatus;

        Accumulator(Integer statuses) {
            byStatus = statuses == null ? null : new AtomicReferenceArray<>(statuses);
        }
    }
}
