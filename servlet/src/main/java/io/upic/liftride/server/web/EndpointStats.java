package io.upic.liftride.server.web;

import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Server-side latency per endpoint (route template and method): count, total and maximum; thread-safe
 * and lock-free. One accumulator per (route, allowed method) exists from the start, found by array
 * index, so recording a request neither allocates nor looks anything up in a map.
 */
public final class EndpointStats {
    /** The ServletContext attribute under which the web application keeps its statistics. */
    public static final String ATTRIBUTE = EndpointStats.class.getName();

    private final Timer[][] timers = new Timer[Route.values().length][HttpMethod.values().length];

    public EndpointStats() {
        for (Route route : Route.values()) {
            for (HttpMethod method : route.methods()) {
                timers[route.ordinal()][method.ordinal()] = new Timer();
            }
        }
    }

    /** Records one answered request; methods the route does not allow (405s) are not endpoints and are ignored. */
    public void record(Route route, HttpMethod method, long nanos) {
        Timer timer = timers[route.ordinal()][method.ordinal()];
        if (timer != null) {
            timer.count.increment();
            timer.totalNanos.add(nanos);
            timer.maxNanos.accumulate(nanos);
        }
    }

    /** The endpoints that answered at least one request, in route order. Each is consistent only with itself. */
    public List<EndpointStat> snapshot() {
        List<EndpointStat> stats = new ArrayList<>();
        for (Route route : Route.values()) {
            for (HttpMethod method : route.methods()) {
                Timer timer = timers[route.ordinal()][method.ordinal()];
                long count = timer.count.sum();
                if (count > 0) {
                    stats.add(new EndpointStat(
                            route.template(), method.name(), count, timer.totalNanos.sum(), timer.maxNanos.get()));
                }
            }
        }
        return stats;
    }

    /** One endpoint's numbers as {@code /statistics} reports them; immutable. */
    public record EndpointStat(String url, String operation, long count, long totalNanos, long maxNanos) {
        /** Mean latency in milliseconds, rounded. */
        public int meanMillis() {
            return (int) Math.round(totalNanos / (double) count / 1_000_000.0);
        }

        /** Maximum latency in milliseconds, rounded up so that a slow request never reports as 0. */
        public int maxMillis() {
            return (int) Math.min(Integer.MAX_VALUE, (maxNanos + 999_999) / 1_000_000);
        }

        public long meanMicros() {
            return Math.round(totalNanos / (double) count / 1_000.0);
        }

        public long maxMicros() {
            return (maxNanos + 999) / 1_000;
        }
    }

    private static final class Timer {
        final LongAdder count = new LongAdder();
        final LongAdder totalNanos = new LongAdder();
        final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);
    }
}
