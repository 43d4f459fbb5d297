package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Operations data goes to operators only: a request straight from loopback gets {@code /metrics}, the
 * store in {@code /statistics} and readiness's checks; the same requests through a proxy (a forwarding
 * header, as nginx and an ALB add) get a JSON 404, the counts alone, and readiness's status alone.
 */
@Timeout(60)
class OperationsAccessIT {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
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

    private static HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anOperatorOnLoopbackSeesEverything() throws Exception {
        HttpResponse<String> metrics = get("/metrics");
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("tomcat_connections_current"), metrics.body());
        JsonObject stats = JsonParser.parseString(get("/statistics").body()).getAsJsonObject();
        assertEquals("memory", stats.get("store").getAsString().replaceAll("[^a-z].*", ""), stats.toString());
        assertTrue(stats.has("durability"), stats.toString());
        assertTrue(get("/health/ready").body().contains("\"checks\""));
    }

    @Test
    void aRequestThroughAProxyGetsNoOperationsData() throws Exception {
        for (String[] forwarded : new String[][] {
            {"X-Forwarded-For", "203.0.113.7"}, {"Forwarded", "for=203.0.113.7"}, {"X-Real-IP", "203.0.113.7"}
        }) {
            String what = String.join(": ", forwarded);
            HttpResponse<String> metrics = get("/metrics", forwarded);
            assertEquals(404, metrics.statusCode(), what);
            assertTrue(metrics.body().contains("operations endpoints answer only"), metrics.body());
            assertEquals(404, get("/admin/limits", forwarded).statusCode(), what);

            JsonObject stats =
                    JsonParser.parseString(get("/statistics", forwarded).body()).getAsJsonObject();
            assertTrue(stats.has("ridesStored") && stats.has("endpointStats"), stats.toString());
            assertFalse(stats.has("store") || stats.has("durability"), stats.toString());

            HttpResponse<String> ready = get("/health/ready", forwarded);
            assertEquals(200, ready.statusCode(), what);
            assertEquals("{\"status\":\"UP\"}", ready.body(), what);
            assertTrue(get("/health/live", forwarded).body().startsWith("{\"status\":\"UP\""), what);
        }
    }
}
