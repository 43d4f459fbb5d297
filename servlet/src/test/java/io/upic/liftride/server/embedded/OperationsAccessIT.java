package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Operations data answers on the management port only: there {@code /metrics}, {@code /admin/limits},
 * the store in {@code /statistics} and readiness's checks; on the API port, whatever forwarding headers
 * a request carries, a JSON 404 for the first two, the counts alone and readiness's status alone.
 */
@Timeout(60)
class OperationsAccessIT {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** No header, then each header a proxy adds, with loopback, private and public addresses. */
    private static final List<String[]> HEADERS = List.of(
            new String[0],
            new String[] {"X-Forwarded-For", "127.0.0.1"},
            new String[] {"X-Forwarded-For", "10.0.1.7"},
            new String[] {"X-Forwarded-For", "192.168.1.2, 127.0.0.1"},
            new String[] {"X-Forwarded-For", "203.0.113.7"},
            new String[] {"Forwarded", "for=127.0.0.1"},
            new String[] {"Forwarded", "for=203.0.113.7"},
            new String[] {"X-Real-IP", "127.0.0.1"},
            new String[] {"X-Real-IP", "10.0.1.7"},
            new String[] {"X-Forwarded-For", "10.0.1.7", "Forwarded", "for=10.0.1.7", "X-Real-IP", "10.0.1.7"});

    private static EmbeddedServer server;

    @BeforeAll
    static void start() {
        server = EmbeddedServer.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static HttpResponse<String> get(String url, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject json(HttpResponse<String> response) {
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    @Test
    void theManagementPortServesMetricsLimitsAndTheStoresDetails() throws Exception {
        String management = server.managementUrl();
        assertNotEquals(server.port(), server.managementPort());

        HttpResponse<String> metrics = get(management + "/metrics");
        assertEquals(200, metrics.statusCode(), metrics.body());
        assertTrue(metrics.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        assertTrue(metrics.body().contains("# TYPE tomcat_connections_current gauge"), metrics.body());

        HttpResponse<String> limits = get(management + "/admin/limits");
        assertEquals(200, limits.statusCode(), limits.body());
        assertTrue(json(limits).has("max-resorts"), limits.body());

        JsonObject stats = json(get(management + "/statistics"));
        assertEquals("memory", stats.get("store").getAsString().replaceAll("[^a-z].*", ""), stats.toString());
        assertTrue(stats.has("durability"), stats.toString());
        assertTrue(json(get(management + "/health/ready")).has("checks"));
    }

    @Test
    void theApiPortNeverServesOperationsDataWhateverTheHeaders() throws Exception {
        String api = server.baseUrl();
        for (String[] headers : HEADERS) {
            String what = headers.length == 0 ? "no header" : String.join(": ", headers);
            for (String path : List.of("/metrics", "/admin/limits")) {
                HttpResponse<String> refused = get(api + path, headers);
                assertEquals(404, refused.statusCode(), path + ", " + what);
                assertTrue(
                        refused.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), what);
                assertTrue(json(refused).get("message").getAsString().startsWith("no route for GET"), what);
            }

            JsonObject stats = json(get(api + "/statistics", headers));
            assertTrue(stats.has("ridesStored") && stats.has("endpointStats"), stats.toString());
            assertFalse(stats.has("store") || stats.has("durability"), what + ": " + stats);

            HttpResponse<String> ready = get(api + "/health/ready", headers);
            assertEquals(200, ready.statusCode(), what);
            assertEquals("{\"status\":\"UP\"}", ready.body(), what);
            assertTrue(get(api + "/health/live", headers).body().startsWith("{\"status\":\"UP\""), what);
        }
        HttpResponse<String> post = HTTP.send(
                HttpRequest.newBuilder(URI.create(api + "/admin/limits?max-seasons=1"))
                        .header("X-Forwarded-For", "127.0.0.1")
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, post.statusCode(), post.body());
        assertEquals(
                100,
                json(get(server.managementUrl() + "/admin/limits"))
                        .get("max-seasons")
                        .getAsInt());
    }
}
