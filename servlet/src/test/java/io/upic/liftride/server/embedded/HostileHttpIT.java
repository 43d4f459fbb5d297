package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.JsonAssertions.errorMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Requests no well-behaved client sends, over raw sockets: malformed request lines and URIs that
 * Tomcat refuses before the application sees them, lying or huge Content-Lengths, oversized chunked
 * bodies, clients that trickle or stall. Every answer is JSON, never HTML, never a 5XX; every stall is
 * bounded by the connector's timeout (1 s here, so the tests stay quick).
 */
@Timeout(60)
class HostileHttpIT {
    private static final int TIMEOUT_MILLIS = 1_000;
    private static final String RIDE = "{\"liftID\":21,\"time\":217}";
    private static final String RIDE_PATH = "/liftride/skiers/1/seasons/2022/days/1/skiers/1";
    private static EmbeddedServer server;

    @BeforeAll
    static void start() {
        server = EmbeddedServer.start(
                "127.0.0.1",
                0,
                new ConnectorSettings(256, 32, 1024, 1_000, TIMEOUT_MILLIS, 60_000, -1, 64 * 1024, 4096, 8192));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static RawHttp.Response exchange(String request) throws IOException {
        return RawHttp.exchange(server.port(), request);
    }

    private static String post(String path, String contentType, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: t\r\nContent-Type: " + contentType + "\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    @Test
    void answersUriErrorsTomcatRaisesItselfWithJson() throws IOException {
        assertEquals(
                "Invalid URI: [The hexadecimal encoding is invalid]",
                errorMessage(exchange("GET /liftride/skiers/%zz HTTP/1.1\r\nHost: t\r\n\r\n"), 400));
        assertEquals(
                "Invalid URI: [The encoded slash character is not allowed]",
                errorMessage(exchange("GET /liftride/skiers/1%2F2/vertical HTTP/1.1\r\nHost: t\r\n\r\n"), 400));
        errorMessage(exchange("GET /liftride/skiers/%C3%28/vertical HTTP/1.1\r\nHost: t\r\n\r\n"), 400);
        errorMessage(exchange("GET /liftride/res{orts} HTTP/1.1\r\nHost: t\r\n\r\n"), 400);
        errorMessage(exchange("GET /liftride/resorts|x HTTP/1.1\r\nHost: t\r\n\r\n"), 400);
        errorMessage(exchange("GET /liftride/../../etc/passwd HTTP/1.1\r\nHost: t\r\n\r\n"), 400);
    }

    @Test
    void answersMalformedRequestsWithJson() throws IOException {
        errorMessage(exchange("GARBAGE\r\n\r\n"), 400);
        errorMessage(exchange("GET /liftride/resorts HTTP/9.9\r\nHost: t\r\n\r\n"), 505);
        errorMessage(exchange("GET /liftride/resorts HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n"), 400);
        errorMessage(exchange("GET /liftride/resorts HTTP/1.1\r\nHost: t\r\nBad Header\r\n\r\n"), 400);
        errorMessage(
                exchange("GET /liftride/resorts HTTP/1.1\r\nHost: t\r\nX: " + "a".repeat(20_000) + "\r\n\r\n"), 400);
        errorMessage(exchange("GET /liftride/" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: t\r\n\r\n"), 400);
    }

    /** 505 for an unknown HTTP version is the one 5XX a client can cause: the protocol requires it. */
    @Test
    void refusesAnUnknownTransferEncodingWith400NotTomcats501() throws IOException {
        RawHttp.Response response = exchange("POST " + RIDE_PATH + " HTTP/1.1\r\nHost: t\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n");
        assertEquals(
                "Transfer-Encoding must be chunked (or absent, with a Content-Length), got \"gzip\"",
                errorMessage(response, 400));
    }

    @Test
    void answers413And415BeforeAnyContinueSoTheBodyIsNeverAskedFor() throws IOException {
        String expect = " HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\n";
        RawHttp.Response tooLarge = exchange(
                "POST " + RIDE_PATH + expect + "Content-Type: application/json\r\nContent-Length: 99999\r\n\r\n");
        errorMessage(tooLarge, 413);
        RawHttp.Response wrongType =
                exchange("POST " + RIDE_PATH + expect + "Content-Type: text/plain\r\nContent-Length: 20\r\n\r\n");
        errorMessage(wrongType, 415);
    }

    @Test
    void sendsContinueWhenTheBodyIsWantedAndStoresTheRide() throws IOException {
        try (RawHttp http = new RawHttp(server.port(), 10_000)) {
            http.send("POST " + RIDE_PATH + " HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + RIDE.length() + "\r\n\r\n");
            assertEquals(100, http.readResponse().status());
            http.send(RIDE);
            assertEquals(201, http.readResponse().status());
        }
    }

    @Test
    void answersJspPathsWithTheApis404() throws IOException {
        errorMessage(exchange("GET /liftride/index.jsp HTTP/1.1\r\nHost: t\r\n\r\n"), 404);
        errorMessage(exchange("GET /liftride/a/b.jspx HTTP/1.1\r\nHost: t\r\n\r\n"), 404);
    }

    @Test
    void answersTraceWith405Json() throws IOException {
        RawHttp.Response response = exchange("TRACE /liftride/resorts HTTP/1.1\r\nHost: t\r\n\r\n");
        assertEquals("TRACE method is not allowed", errorMessage(response, 405));
        assertTrue(response.header("Allow") != null);
    }

    @Test
    void answersUnknownMethodsWith405AndAllow() throws IOException {
        RawHttp.Response response = exchange("BREW " + RIDE_PATH + " HTTP/1.1\r\nHost: t\r\n\r\n");
        errorMessage(response, 405);
        assertEquals("GET, POST", response.header("Allow"));
    }

    @Test
    void refusesAHugeContentLengthWith413WithoutReadingTheBody() throws IOException {
        long started = System.nanoTime();
        try (RawHttp http = new RawHttp(server.port(), 10_000)) {
            http.send(
                    "POST " + RIDE_PATH
                            + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{\"liftID\":");
            RawHttp.Response response = http.readResponse();
            assertEquals("body must be at most 4096 bytes, Content-Length is 1000000000", errorMessage(response, 413));
            assertEquals("close", response.header("Connection"));
        }
        assertTrue(System.nanoTime() - started < 5_000_000_000L, "413 must not wait for the body");
    }

    @Test
    void refusesAnEndlessChunkedBodyWith413AfterTheLimit() throws IOException {
        try (RawHttp http = new RawHttp(server.port(), 10_000)) {
            http.send("POST " + RIDE_PATH
                    + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = "400\r\n" + " ".repeat(1024) + "\r\n";
            for (int i = 0; i < 5; i++) {
                http.send(chunk); // 5 KiB and no last chunk: the server must stop reading on its own
            }
            assertEquals(
                    "body must be at most 4096 bytes, the chunked body is longer",
                    errorMessage(http.readResponse(), 413));
        }
    }

    @Test
    void refusesMalformedChunkedFramingWith400() throws IOException {
        String message = errorMessage(
                exchange("POST " + RIDE_PATH + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
                400);
        assertEquals("body could not be read: Invalid chunk header", message);
    }

    @Test
    void acceptsABodyTrickledSlowerThanAnyRealClientButWithinTheTimeout() throws IOException, InterruptedException {
        byte[] body = RIDE.getBytes(StandardCharsets.US_ASCII);
        try (RawHttp http = new RawHttp(server.port(), 10_000)) {
            http.send("POST " + RIDE_PATH + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length + "\r\n\r\n");
            for (int i = 0; i < body.length; i += 4) {
                Thread.sleep(TIMEOUT_MILLIS / 5);
                http.send(java.util.Arrays.copyOfRange(body, i, Math.min(body.length, i + 4)));
            }
            assertEquals(201, http.readResponse().status());
        }
    }

    @Test
    void answers408WhenTheBodyStopsArriving() throws IOException {
        long started = System.nanoTime();
        try (RawHttp http = new RawHttp(server.port(), 10_000)) {
            http.send(
                    "POST " + RIDE_PATH
                            + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"liftID\":");
            RawHttp.Response response = http.readResponse();
            assertEquals("body was not received within the server's timeout", errorMessage(response, 408));
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis >= TIMEOUT_MILLIS - 100 && millis < 5 * TIMEOUT_MILLIS, "took " + millis + " ms");
    }

    @Test
    void closesAConnectionWhoseHeadersStopArriving() throws IOException {
        long started = System.nanoTime();
        try (RawHttp http = new RawHttp(server.port(), 10_000)) {
            http.send("GET /liftride/resorts HTTP/1.1\r\nHost: t\r\nX-Slow: ");
            assertTrue(http.closedByServer());
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < 5 * TIMEOUT_MILLIS + 1000, "took " + millis + " ms");
    }

    @Test
    void refusesABodyShorterThanItsContentLength() throws IOException {
        try (RawHttp http = new RawHttp(server.port(), 10_000)) {
            http.send("POST " + RIDE_PATH
                    + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n" + RIDE);
            http.socketShutdownOutput();
            RawHttp.Response response = http.readResponse();
            errorMessage(response, 400);
        }
    }

    @Test
    void keepsAConnectionOpenForMoreThanTomcatsDefaultHundredRequests() throws IOException {
        try (RawHttp http = new RawHttp(server.port(), 10_000)) {
            for (int i = 0; i < 150; i++) {
                http.send(post(RIDE_PATH, "application/json", RIDE));
                RawHttp.Response response = http.readResponse();
                assertEquals(201, response.status());
                assertNull(response.header("Connection"), "request " + (i + 1) + " closed the connection");
            }
            http.send("GET /liftride/statistics HTTP/1.1\r\nHost: t\r\n\r\n");
            assertEquals(200, http.readResponse().status());
        }
    }

    @Test
    void answersRequestsAfterAnErrorOnAFreshConnection() throws IOException {
        errorMessage(exchange(post(RIDE_PATH, "application/json", "{bad")), 400);
        assertEquals(201, exchange(post(RIDE_PATH, "application/json", RIDE)).status());
    }

    @Test
    void neverEchoesHostileValuesUnescaped() throws IOException {
        RawHttp.Response response =
                exchange(post(RIDE_PATH, "application/json", "{\"liftID\":\"<script>\\u0000\",\"time\":1}"));
        String message = errorMessage(response, 400);
        assertEquals("liftID must be an integer in 1..60, got \"<script>\\u0000\" (a string)", message);
        assertFalse(response.body().contains("\u0000"));
    }
}
