package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.server.operations.OperatingSettings;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.testkit.RedisServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The embedded server as a load balancer, an orchestrator and Prometheus see it: {@code /health/live}
 * and {@code /health/ready} (bounded in time while Redis hangs), the drain's order on stop, and {@code
 * /metrics} on the management port (and its switch).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OperableServerIT {
    private static final String RIDE = "/skiers/3/seasons/2022/days/1/skiers/9";
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url, String body) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .POST(BodyPublishers.ofString(body))
                        .build(),
                BodyHandlers.ofString());
    }

    private static JsonObject json(HttpResponse<String> response) {
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    private static String status(JsonObject health, String check) {
        return health.getAsJsonObject("checks")
                .getAsJsonObject(check)
                .get("status")
                .getAsString();
    }

    @Test
    void readinessTurns503WithinItsDeadlineWhileRedisHangsAndLivenessStaysUp() throws Exception {
        try (RedisServer redis = RedisServer.start();
                EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, StoreSpec.parse(redis.url()))) {
            HttpResponse<String> ready = get(server.managementUrl() + "/health/ready");
            assertEquals(200, ready.statusCode(), ready.body());
            assertEquals("UP", json(ready).get("status").getAsString());
            assertEquals("UP", status(json(ready), "store"), ready.body());

            redis.freeze();
            try {
                for (int i = 0; i < 3; i++) { // a hung ping is shared, never piled up, and never waited out
                    long start = System.nanoTime();
                    HttpResponse<String> hung = get(server.managementUrl() + "/health/ready");
                    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    assertEquals(503, hung.statusCode(), hung.body());
                    assertEquals("1", hung.headers().firstValue("Retry-After").orElse(""));
                    assertEquals("DOWN", status(json(hung), "store"), hung.body());
                    assertEquals("UP", status(json(hung), "draining"), hung.body());
                    assertTrue(millis < 1_000, "ready answered in " + millis + " ms, not within its 250 ms deadline");
                }
                HttpResponse<String> live = get(server.baseUrl() + "/health/live");
                assertEquals(200, live.statusCode(), live.body());
            } finally {
                redis.resume();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (get(server.baseUrl() + "/health/ready").statusCode() != 200) {
                assertTrue(System.nanoTime() < deadline, "ready again once Redis answers");
                Thread.sleep(100);
            }
        }
    }

    @Test
    void aStoppingServerIsNotReadyAtOnceServesThroughTheGraceThenRefusesNewConnectionsAndClosesKeptAliveOnes()
            throws Exception {
        EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, context -> {
            context.addParameter(OperatingSettings.DRAIN_GRACE, "1500");
            context.addParameter(OperatingSettings.DRAIN_MAX, "5000");
        });
        String base = server.baseUrl();
        assertEquals(200, get(base + "/health/ready").statusCode());
        long start = System.nanoTime();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
        HttpResponse<String> ready = get(base + "/health/ready");
        while (ready.statusCode() == 200 && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(1)) {
            ready = get(base + "/health/ready");
        }
        assertEquals(503, ready.statusCode(), "not ready once the stop began: " + ready.body());
        assertEquals("{\"status\":\"DOWN\"}", ready.body());
        HttpResponse<String> checks = get(server.managementUrl() + "/health/ready");
        assertEquals("DOWN", status(json(checks), "draining"), checks.body());

        HttpResponse<String> ride = post(base + RIDE, "{\"liftID\": 5, \"time\": 30}");
        assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(1500), "still within the grace");
        assertEquals(201, ride.statusCode(), "a ride during the grace is stored: " + ride.body());
        assertTrue(ride.headers().firstValue("Connection").isEmpty(), "its connection stays open for the next");

        Thread.sleep(Math.max(
                0, TimeUnit.NANOSECONDS.toMillis(start + TimeUnit.MILLISECONDS.toNanos(1650) - System.nanoTime())));
        HttpResponse<String> late = post(base + RIDE, "{\"liftID\": 6, \"time\": 31}");
        assertEquals(
                201, late.statusCode(), "after the grace, a kept-alive connection is still served: " + late.body());
        assertEquals("close", late.headers().firstValue("Connection").orElse(""), "and then closed");
        closing.get(10, TimeUnit.SECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(millis >= 1_500 && millis < 5_000, "the stop waited out the grace and no more: " + millis + " ms");
        assertThrows(ConnectException.class, () -> get(base + "/health/live"), "no longer accepting");
    }

    @Test
    void metricsShowRequestsByRouteAndStatusTheJvmAndTomcatInThePrometheusFormat() throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            assertEquals(
                    201,
                    post(server.baseUrl() + RIDE, "{\"liftID\": 5, \"time\": 30}")
                            .statusCode());
            assertEquals(
                    201,
                    post(server.baseUrl() + RIDE, "{\"liftID\": 6, \"time\": 31}")
                            .statusCode());
            assertEquals(
                    400,
                    post(server.baseUrl() + RIDE, "{\"liftID\": 0, \"time\": 31}")
                            .statusCode());

            HttpResponse<String> metrics = get(server.managementUrl() + "/metrics");
            assertEquals(200, metrics.statusCode());
            assertEquals(
                    "text/plain;version=0.0.4;charset=utf-8", // Tomcat writes the parameters without spaces
                    metrics.headers().firstValue("Content-Type").orElse(""));
            String text = metrics.body();
            String route = "route=\"/skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}\"";
            assertTrue(
                    text.contains(
                            "liftride_http_requests_seconds_count{method=\"POST\"," + route + ",status=\"201\"} 2"),
                    text);
            assertTrue(
                    text.contains(
                            "liftride_http_requests_seconds_count{method=\"POST\"," + route + ",status=\"400\"} 1"),
                    text);
            assertTrue(text.contains("liftride_http_requests_seconds_bucket{method=\"POST\"," + route), text);
            for (String name : new String[] {
                "jvm_memory_used_bytes",
                "jvm_gc_",
                "jvm_threads_live_threads",
                "tomcat_threads_busy{port=\"0\"}", // the configured port: this server asked for any free one
                "tomcat_threads_config_max",
                "tomcat_connections_current",
                "liftride_unavailable_total{cause=\"store_unreachable\"} 0",
                "liftride_store_queue_rides",
                "liftride_redis_batch_rides_bucket",
                "liftride_redis_commands_seconds_bucket"
            }) {
                assertTrue(text.contains(name), name + " missing from /metrics:\n" + text);
            }
        }
    }

    @Test
    void metricsOffAnswersAJson404AndRecordsNothing() throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start(
                "127.0.0.1", 0, context -> context.addParameter(OperatingSettings.METRICS, "off"))) {
            HttpResponse<String> metrics = get(server.managementUrl() + "/metrics");
            assertEquals(404, metrics.statusCode());
            assertEquals("{\"message\":\"metrics are off on this server (liftride.metrics=off)\"}", metrics.body());
            HttpResponse<String> wrongMethod = post(server.baseUrl() + "/health/ready", "{}");
            assertEquals(405, wrongMethod.statusCode());
            assertEquals("GET, HEAD", wrongMethod.headers().firstValue("Allow").orElse(""));
        }
    }
}
