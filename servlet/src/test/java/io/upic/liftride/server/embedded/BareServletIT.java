package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.JsonAssertions.errorMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The benchmark-only bare servlet: 201 for anything under /liftride/bench/bare/* when the server is
 * started with {@code bare}, unread and unvalidated, with no filter in front; a JSON 404 otherwise.
 */
@Timeout(60)
class BareServletIT {
    /** The path post.lua produces when wrk's URL is .../liftride/bench/bare. */
    private static final String WRK_PATH = "/bench/bare/skiers/1/seasons/2022/days/1/skiers/5";

    private static final String RIDE = "{\"liftID\":21,\"time\":217,\"waitTime\":3}";
    private static final Set<String> WEB_XML_SERVLETS = Set.of("skiers", "resorts", "statistics", "not-found", "error");

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

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
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, true)) {
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
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, true);
                RawHttp http = new RawHttp(server.port(), 10_000)) {
            String body = "x".repeat(32 * 1024); // below maxSwallowSize (64 KiB): swallowed, not a reason to close
            for (int i = 0; i < 3; i++) { // three requests on one connection: each body was consumed in full
                http.send("POST /liftride" + WRK_PATH
                        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + "Content-Length: "
                        + body.length() + "\r\n\r\n" + body);
                RawHttp.Response response = http.readResponse();
                assertEquals(201, response.status(), "request " + i);
                assertEquals("", response.body());
                assertNull(response.header("Connection"), "the connection stays open: " + response.headers());
            }
        }
    }

    @Test
    void runsWithNoFilterInFrontAndLeavesTheRealPostTimed() throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, true)) {
            assertEquals(BareMapping.SERVLET_NAME, server.context().findServletMapping(EmbeddedServer.BARE_MAPPING));
            assertEquals(0, server.context().findFilterMaps().length, "no filter in front of any servlet");

            // the real POST is still validated, stored and timed beside it
            assertEquals(
                    201,
                    post(server, "/skiers/1/seasons/2022/days/1/skiers/5", "application/json", RIDE)
                            .statusCode());
            assertEquals(
                    400,
                    post(server, "/skiers/1/seasons/2022/days/1/skiers/5", "application/json", "{}")
                            .statusCode());
            JsonObject stats = statistics(server);
            assertEquals(1, stats.get("ridesStored").getAsLong(), stats.toString());
            JsonObject postStat = stats.getAsJsonArray("endpointStats").get(0).getAsJsonObject();
            assertEquals("POST", postStat.get("operation").getAsString(), stats.toString());
            assertEquals(2, postStat.get("count").getAsLong(), stats.toString());
        }
    }

    @Test
    void isA404WithoutBare() throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            String message = errorMessage(post(server, "/bench/bare/anything", "application/json", RIDE), 404);
            assertTrue(message.startsWith("no route for POST \"/bench/bare/anything\""), message);
            assertNull(server.context().findChild(BareMapping.SERVLET_NAME));
        }
    }
}
