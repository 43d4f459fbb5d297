package io.upic.liftride.server.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EndpointStatsTest {
    @Test
    void reportsNothingBeforeAnyRequest() {
        assertTrue(new EndpointStats().snapshot().isEmpty());
    }

    @Test
    void reportsCountMeanAndMaxPerRouteAndMethod() {
        EndpointStats stats = new EndpointStats();
        stats.record(Route.SKIER_DAY, HttpMethod.POST, 201, 1_000_000);
        stats.record(Route.SKIER_DAY, HttpMethod.POST, 201, 2_400_000);
        stats.record(Route.RESORTS, HttpMethod.GET, 200, 1);
        List<EndpointStats.EndpointStat> snapshot = stats.snapshot();
        assertEquals(2, snapshot.size());
        EndpointStats.EndpointStat post = snapshot.get(0);
        assertEquals("/skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}", post.url());
        assertEquals("POST", post.operation());
        assertEquals(2, post.count());
        assertEquals(2, post.mean()); // 1.7 ms rounds to 2
        assertEquals(3, post.max()); // 2.4 ms rounds up to 3
        assertEquals(1700, post.meanMicros());
        assertEquals(2400, post.maxMicros());
        EndpointStats.EndpointStat resorts = snapshot.get(1);
        assertEquals("/resorts", resorts.url());
        assertEquals(0, resorts.mean());
        assertEquals(1, resorts.max()); // never 0 for a request that took any time
        assertEquals(1, resorts.maxMicros());
    }

    @Test
    void ignoresMethodsTheRouteDoesNotAllow() {
        EndpointStats stats = new EndpointStats();
        stats.record(Route.RESORTS, HttpMethod.POST, 405, 5);
        assertTrue(stats.snapshot().isEmpty());
    }

    @Test
    void countsExactlyUnderConcurrency() throws InterruptedException {
        EndpointStats stats = new EndpointStats();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (int t = 0; t < 8; t++) {
            long nanos = (t + 1) * 1000L;
            pool.execute(() -> {
                for (int i = 0; i < 100_000; i++) {
                    stats.record(Route.SKIER_DAY, HttpMethod.POST, 201, nanos);
                }
            });
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        EndpointStats.EndpointStat post = stats.snapshot().get(0);
        assertEquals(800_000, post.count());
        assertEquals(8, post.maxMicros());
        assertEquals(5, post.meanMicros(), "4.5 us rounds up; one lost nanosecond would round it down");
    }

    @Test
    void withARegistryEachRequestIsAlsoTimedByRouteMethodAndStatusAsAHistogram() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EndpointStats stats = new EndpointStats(registry);
        stats.record(Route.SKIER_DAY, HttpMethod.POST, 201, 2_000_000);
        stats.record(Route.SKIER_DAY, HttpMethod.POST, 201, 3_000_000);
        stats.record(Route.SKIER_DAY, HttpMethod.POST, 400, 1_000_000);

        String route = Route.SKIER_DAY.template();
        Timer created = registry.get("liftride.http.requests")
                .tags("route", route, "method", "POST", "status", "201")
                .timer();
        assertEquals(2, created.count());
        assertEquals(5.0, created.totalTime(TimeUnit.MILLISECONDS), 1e-9);
        assertEquals(
                1,
                registry.get("liftride.http.requests")
                        .tags("status", "400")
                        .timer()
                        .count());
        String text = registry.scrape();
        assertTrue(
                text.contains("liftride_http_requests_seconds_bucket{method=\"POST\",route=\"" + route
                        + "\",status=\"201\",le=\"+Inf\"} 2"),
                text);
        assertEquals(3, stats.snapshot().get(0).count(), "/statistics still counts every answer");
    }
}
