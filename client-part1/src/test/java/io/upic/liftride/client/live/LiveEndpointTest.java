package io.upic.liftride.client.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.LiveFigures;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.plan.Shard;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LiveEndpointTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final MetricsAddress ANY_FREE_PORT = new MetricsAddress("127.0.0.1", 0);

    private static LiveMetrics oneRun() {
        LiveMetrics metrics = new LiveMetrics();
        int causes = LiveFigures.Cause.values().length;
        int buckets = LiveFigures.LATENCY_BOUNDS_NANOS.length + 1;
        metrics.watch(
                "00000000000000aa",
                null,
                Shard.WHOLE,
                () -> List.of(new LiveFigures(
                        0,
                        "startup",
                        Operation.WRITE_NEW_LIFT_RIDE,
                        3,
                        3,
                        0,
                        0,
                        new long[causes],
                        new long[buckets],
                        0)));
        return metrics;
    }

    private static HttpResponse<String> send(String method, String url) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void getMetricsAnswersThePrometheusTextFormatUntilClosed() throws Exception {
        String url;
        try (LiveEndpoint endpoint = LiveEndpoint.open(ANY_FREE_PORT, oneRun())) {
            url = "http://127.0.0.1:" + endpoint.port() + "/metrics";
            HttpResponse<String> r = send("GET", url);
            assertEquals(200, r.statusCode());
            assertEquals(
                    "text/plain; version=0.0.4; charset=utf-8",
                    r.headers().firstValue("Content-Type").orElse(""));
            assertTrue(
                    r.body()
                            .contains("liftride_client_requests_successful_total{op=\"writeNewLiftRide\","
                                    + "phase=\"startup\",run_id=\"00000000000000aa\",shard=\"1/1\"} 3.0"),
                    r.body());
            assertEquals(405, send("POST", url).statusCode());
            assertEquals(404, send("GET", url + "/more").statusCode());
        }
        assertThrows(ConnectException.class, () -> send("GET", url));
    }

    @Test
    void theFinalWaitIsNoneWhenNothingScraped() throws Exception {
        try (LiveEndpoint endpoint = LiveEndpoint.open(ANY_FREE_PORT, oneRun())) {
            long start = System.nanoTime();
            assertFalse(endpoint.awaitFinalScrape());
            assertTrue(System.nanoTime() - start < 1_000_000_000L, "returns at once");
        }
    }

    @Test
    void theFinalWaitEndsWithTheFirstScrapeAfterIt() throws Exception {
        try (LiveEndpoint endpoint = LiveEndpoint.open(ANY_FREE_PORT, oneRun())) {
            String url = "http://127.0.0.1:" + endpoint.port() + "/metrics";
            send("GET", url);
            FutureTask<Boolean> wait = new FutureTask<>(endpoint::awaitFinalScrape);
            new Thread(wait, "final-scrape-wait").start();
            while (!wait.isDone()) { // the wait began at some point: a scrape after that ends it
                send("GET", url);
            }
            assertTrue(wait.get());
        }
    }

    @Test
    void aPortInUseIsRefusedWithTheBindError() throws Exception {
        try (LiveEndpoint first = LiveEndpoint.open(ANY_FREE_PORT, oneRun())) {
            assertThrows(
                    IOException.class,
                    () -> LiveEndpoint.open(new MetricsAddress("127.0.0.1", first.port()), oneRun()));
        }
    }

    @Test
    void theFlagTakesAPortOrHostAndPort() {
        assertEquals(new MetricsAddress(null, 9464), MetricsAddress.parse("9464"));
        assertEquals(new MetricsAddress("127.0.0.1", 0), MetricsAddress.parse(" 127.0.0.1:0 "));
        assertEquals("127.0.0.1:0", MetricsAddress.parse("127.0.0.1:0").toString());
        for (String bad : List.of("", "x", "65536", "-1", "host:", ":9", "1.5", "123456")) {
            assertThrows(IllegalArgumentException.class, () -> MetricsAddress.parse(bad), bad);
        }
    }
}
