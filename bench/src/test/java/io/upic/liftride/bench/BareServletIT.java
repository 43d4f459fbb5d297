package io.upic.liftride.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.server.embedded.EmbeddedServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bare server: 201 for anything under /liftride/bench/bare/*, unread and unvalidated, beside the
 * real API, which still validates, stores and times; a JSON 404 on a server without the bare servlet.
 */
@Timeout(60)
class BareServletIT {
    /** The path post.lua produces when wrk's URL is .../liftride/bench/bare. */
    private static final String WRK_PATH = "/bench/bare/skiers/1/seasons/2022/days/1/skiers/5";

    private static final String RIDE = "{\"liftID\":21,\"time\":217,\"waitTime\":3}";

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private static EmbeddedServer startBare() {
        return EmbeddedServer.start("127.0.0.1", 0, BareServer::mapBareServlet);
    }

    private HttpResponse<String> post(EmbeddedServer server, String path, String contentType, String body)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", contentType)
                .POST(BodyPublishers.ofString(body))
                .build();
        return client.send(request, BodyHandlers.ofString());
    }

    private JsonObject statistics(EmbeddedServer server) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/statistics"))
                .timeout(Duration.ofSeconds(10))
                .build();
        return JsonParser.parseString(
                        client.send(request, BodyHandlers.ofString()).body())
                .getAsJsonObject();
    }

    @Test
    void answers201WithAnEmptyBodyToAnythingUnderBenchBare() throws Exception {
        try (EmbeddedServer server = startBare()) {
            for (String path : List.of("/bench/bare/anything", WRK_PATH, "/bench/bare/", "/bench/bare")) {
                HttpResponse<String> response = post(server, path, "application/json", RIDE);
                assertEquals(201, response.statusCode(), path);
                assertEquals("", response.body(), path);
                assertEquals(
                        "0", response.headers().firstValue("Content-Length").orElse(null), path);
            }
            // nothing is read, so nothing is validated: a wrong media type and a broken body are 201 too
            assertEquals(
                    201,
                    post(server, "/bench/bare/x", "text/plain", "{not json").statusCode());
            HttpRequest get = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/bench/bare/x"))
                    .timeout(Duration.ofSeconds(10))
                    .build();
            assertEquals(201, client.send(get, BodyHandlers.discarding()).statusCode());

            JsonObject stats = statistics(server);
            assertEquals(0, stats.get("ridesStored").getAsLong(), "the bare servlet stores nothing: " + stats);
            assertEquals(0, stats.getAsJsonArray("endpointStats").size(), "and is not an endpoint: " + stats);
        }
    }

    @Test
    void letsTomcatSwallowTheUnreadBodyAndKeepsTheConnection() throws Exception {
        try (EmbeddedServer server = startBare();
                Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            String body = "x".repeat(32 * 1024); // below maxSwallowSize (64 KiB): swallowed, not a reason to close
            for (int i = 0; i < 3; i++) { // three requests on one connection: each body was consumed in full
                out.write(("POST /liftride" + WRK_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n"
                                + body)
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                String status = in.readLine();
                assertTrue(status.startsWith("HTTP/1.1 201"), "request " + i + ": " + status);
                List<String> headers = new ArrayList<>();
                for (String line = in.readLine(); !line.isEmpty(); line = in.readLine()) {
                    headers.add(line.toLowerCase(Locale.ROOT));
                }
                assertTrue(headers.contains("content-length: 0"), headers::toString);
                assertFalse(headers.contains("connection: close"), "the connection stays open: " + headers);
            }
        }
    }

    @Test
    void leavesTheRealPostValidatedStoredAndTimed() throws Exception {
        try (EmbeddedServer server = startBare()) {
            String path = "/skiers/1/seasons/2022/days/1/skiers/5";
            assertEquals(201, post(server, path, "application/json", RIDE).statusCode());
            assertEquals(400, post(server, path, "application/json", "{}").statusCode());
            JsonObject stats = statistics(server);
            assertEquals(1, stats.get("ridesStored").getAsLong(), stats.toString());
            JsonObject postStat = stats.getAsJsonArray("endpointStats").get(0).getAsJsonObject();
            assertEquals("POST", postStat.get("operation").getAsString(), stats.toString());
            assertEquals(2, postStat.get("count").getAsLong(), stats.toString());
        }
    }

    @Test
    void isA404OnTheServerWithoutIt() throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            HttpResponse<String> response = post(server, "/bench/bare/anything", "application/json", RIDE);
            assertEquals(404, response.statusCode());
            String message = JsonParser.parseString(response.body())
                    .getAsJsonObject()
                    .get("message")
                    .getAsString();
            assertTrue(message.startsWith("no route for POST \"/bench/bare/anything\""), message);
        }
    }
}
