package io.upic.liftride.server.operations;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.UnavailableCause;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.LongStream;
import org.apache.catalina.connector.Connector;

/**
 * The server's Prometheus metrics, served by {@code /metrics}: requests ({@link EndpointStats}), 503s by cause,
 * the JVM, Tomcat's connectors and the ride store. Thread-safe; one per web application, closed with it.
 */
public final class Metrics implements AutoCloseable {
    /** The ServletContext attribute under which the web application keeps its metrics (absent when off). */
    public static final String ATTRIBUTE = Metrics.class.getName();

    /** The Prometheus text format that {@link #scrape()} writes. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final Map<UnavailableCause, Counter> unavailable = new EnumMap<>(UnavailableCause.class);

    public Metrics() {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        for (UnavailableCause cause : UnavailableCause.values()) {
            unavailable.put(
                    cause,
                    Counter.builder("liftride.unavailable")
                            .description("API answers 503 (with Retry-After), by cause")
                            .tag("cause", cause.label())
                            .register(registry));
        }
    }

    /** Where {@link EndpointStats} registers its request timers. */
    MeterRegistry registry() {
        return registry;
    }

    /** The request histogram's bounds: 16 buckets, not a percentile histogram's ~70, as every request records. */
    private static final Duration[] REQUEST_BUCKETS = LongStream.of(
                    250,
                    500,
                    1_000,
                    2_000,
                    5_000,
                    10_000,
                    25_000,
                    50_000,
                    100_000,
                    250_000,
                    500_000,
                    1_000_000,
                    2_500_000,
                    5_000_000,
                    10_000_000)
            .mapToObj(micros -> Duration.ofNanos(micros * 1_000))
            .toArray(Duration[]::new);

    /** The request timer of one route, method and status: a histogram, so several servers add up. */
    static Timer requestTimer(MeterRegistry registry, String route, String method, int status) {
        return Timer.builder("liftride.http.requests")
                .description("API requests answered, by route template, method and status, from routing to answer")
                .tags("route", route, "method", method, "status", Integer.toString(status))
                .serviceLevelObjectives(REQUEST_BUCKETS)
                .register(registry);
    }

    /** Counts one 503 under its cause. */
    public void unavailable(UnavailableCause cause) {
        unavailable.get(cause).increment();
    }

    /** The store's queue as gauges and its commands and batches as a timer and a histogram. */
    void bindStore(RideStore store) {
        Gauge.builder("liftride.store.queue.rides", store, RideStore::queuedRides)
                .description("rides waiting for their group-commit batch")
                .strongReference(true)
                .register(registry);
        Gauge.builder("liftride.store.queue.capacity.rides", store, s -> (double) s.queueCapacity())
                .description("rides that may wait at most before one is refused with 503")
                .strongReference(true)
                .register(registry);
        Timer commands = Timer.builder("liftride.redis.commands")
                .description("Redis round trips (a batch's FCALL, a GET's HGET, ...), answered or failed")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(50_000))
                .maximumExpectedValue(Duration.ofSeconds(5))
                .register(registry);
        DistributionSummary batches = DistributionSummary.builder("liftride.redis.batch.rides")
                .description("rides per group-commit batch (one FCALL each)")
                .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
                .register(registry);
        store.observe(nanos -> commands.record(nanos, TimeUnit.NANOSECONDS), batches::record);
    }

    /** Tomcat's request threads and connections, per connector port, read when scraped. */
    void bindConnectors(List<Connector> connectors) {
        for (Connector c : connectors) {
            gauge("tomcat.threads.busy", "request threads working on a request", c, TomcatConnectors::busyThreads);
            gauge("tomcat.threads.current", "request threads that exist", c, TomcatConnectors::currentThreads);
            gauge("tomcat.threads.config.max", "maxThreads", c, TomcatConnectors::maxThreads);
            gauge(
                    "tomcat.connections.current",
                    "connections open, in flight or idle",
                    c,
                    TomcatConnectors::connections);
            gauge("tomcat.connections.config.max", "maxConnections", c, TomcatConnectors::maxConnections);
        }
    }

    private void gauge(String name, String description, Connector connector, ToDoubleFunction<Connector> value) {
        Gauge.builder(name, connector, value)
                .description(description)
                .tag("port", Integer.toString(connector.getPort()))
                .strongReference(true)
                .register(registry);
    }

    /** Every metric in the Prometheus text format ({@link #CONTENT_TYPE}). */
    public String scrape() {
        return registry.scrape();
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
