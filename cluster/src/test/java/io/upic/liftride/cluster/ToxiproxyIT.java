package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real Toxiproxy in front of a tiny HTTP server, all on loopback. Each test takes a few seconds; the
 * first run on a machine also compiles Toxiproxy with go install (minutes, once), hence the timeout.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ToxiproxyIT {
    private HttpServer web;
    private HostPort webAddress;

    @BeforeEach
    void startWebServer() throws IOException {
        web = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        web.createContext("/", exchange -> {
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        web.start();
        webAddress = new HostPort("127.0.0.1", web.getAddress().getPort());
    }

    @AfterEach
    void stopWebServer() {
        web.stop(0);
    }

    @Test
    void aGetThrough40MsOfRoundTripTakesAtLeast40MsAndTheProxyIsGoneAfterStop() throws Exception {
        HostPort far;
        HostPort api;
        try (Toxiproxy toxiproxy = Toxiproxy.start()) {
            api = toxiproxy.api();
            far = toxiproxy.proxy("web", webAddress);
            toxiproxy.latency("web", Duration.ofMillis(40), Duration.ZERO);
            String toxics = api(api, "GET", "/proxies/web/toxics").body();
            assertTrue(
                    toxics.contains("\"stream\":\"upstream\"") && toxics.contains("\"stream\":\"downstream\""), toxics);
            assertEquals(2, toxics.split("\"latency\":20").length - 1, toxics);
            HttpClient client = HttpClient.newHttpClient(); // one kept-alive connection: no connect in the timings
            for (int i = 0; i < 3; i++) {
                long startNanos = System.nanoTime();
                HttpResponse<String> response = get(client, far);
                long tookNanos = System.nanoTime() - startNanos;
                assertEquals("ok", response.body());
                assertTrue(tookNanos >= 40_000_000, "a GET through the proxy took " + tookNanos / 1e6 + " ms");
            }
            assertEquals("ok", get(client, webAddress).body(), "the server itself still answers directly");
        }
        assertRefused(far);
        assertRefused(api);
    }

    @Test
    void aRemovedProxyStopsListeningWhileToxiproxyRuns() throws Exception {
        try (Toxiproxy toxiproxy = Toxiproxy.start()) {
            HostPort far = toxiproxy.proxy("gone", webAddress);
            assertEquals("ok", get(HttpClient.newHttpClient(), far).body());
            assertEquals(204, api(toxiproxy.api(), "DELETE", "/proxies/gone").statusCode());
            assertRefused(far);
            assertThrows(IllegalArgumentException.class, () -> toxiproxy.latency("gone", Duration.ZERO, Duration.ZERO));
            assertThrows(
                    IllegalStateException.class,
                    () -> toxiproxy.latency("gone", Duration.ofMillis(10), Duration.ZERO),
                    "a toxic on a proxy that is not there is refused by the API");
        }
    }

    /** A call to Toxiproxy's HTTP API. */
    private static HttpResponse<String> api(HostPort api, String method, String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://" + api + path))
                                .method(method, HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(HttpClient client, HostPort to) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://" + to + "/"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void assertRefused(HostPort address) {
        assertThrows(
                ConnectException.class,
                () -> {
                    try (Socket socket = new Socket()) {
                        socket.connect(new InetSocketAddress(address.host(), address.port()), 2_000);
                    }
                },
                address + " still accepts connections");
    }
}
