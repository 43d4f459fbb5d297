package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.JsonAssertions.errorMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.limits.Limit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The whole-body deadline on a server with 4 request threads, a 1.5 s body deadline and the shipped
 * 10 s connection timeout: a body trickled faster than the connection timeout but slower than the
 * deadline gets 408 at the deadline and its connection is closed; many slow bodies at once hold none
 * of the 4 threads, so other requests are answered meanwhile; a body that arrives in pieces within the
 * deadline is stored and timed into /statistics like any other.
 */
@Timeout(60)
class BodyDeadlineIT {
    private static final int DEADLINE_MILLIS = 1_500;
    private static final String RIDE = "{\"liftID\":21,\"time\":217}";
    private static final String RIDE_PATH = "/liftride/skiers/1/seasons/2022/days/3/skiers/";
    private static EmbeddedServer server;

    @BeforeAll
    static void start() {
        ConnectorSettings fourThreads =
                new ConnectorSettings(4, 1, 1024, 10_000, 10_000, 60_000, -1, 65536, 4096, 8192);
        server = EmbeddedServer.start(
                "127.0.0.1",
                0,
                "127.0.0.1",
                0,
                fourThreads,
                context ->
                        context.addParameter(Limit.BODY_DEADLINE_MILLIS.property(), Integer.toString(DEADLINE_MILLIS)));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static RawHttp startRide(int skier) throws IOException {
        RawHttp http = new RawHttp(server.port(), 10_000);
        http.send("POST " + RIDE_PATH + skier + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + RIDE.length() + "\r\n\r\n" + RIDE.charAt(0));
        return http;
    }

    @Test
    void aBodyTrickledWithinTheConnectionTimeoutButPastTheDeadlineGets408AndIsClosed() throws Exception {
        long started = System.nanoTime();
        try (RawHttp http = startRide(1)) {
            for (int i = 1; i < 6; i++) { // one byte every 400 ms: never 10 s without a byte
                Thread.sleep(400);
                try {
                    http.send(RIDE.substring(i, i + 1));
                } catch (IOException closed) {
                    break; // the server already answered and closed
                }
            }
            RawHttp.Response response = http.readResponse();
            assertTrue(
                    errorMessage(response, 408)
                            .startsWith("body was not received within the server's deadline of 1500 ms ("),
                    response.body());
            assertEquals("close", response.header("Connection"));
            assertTrue(http.closedByServer());
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis >= DEADLINE_MILLIS - 100 && millis < DEADLINE_MILLIS + 2_500, "took " + millis + " ms");
    }

    @Test
    void twentySlowBodiesHoldNoneOfTheFourThreads() throws Exception {
        List<RawHttp> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                slow.add(startRide(100 + i));
            }
            Thread.sleep(200); // every slow request has reached the servlet
            long started = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                RawHttp.Response stats =
                        RawHttp.exchange(server.port(), "GET /liftride/resorts/1/seasons HTTP/1.1\r\nHost: t\r\n\r\n");
                assertEquals(200, stats.status(), stats.body());
            }
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(millis < DEADLINE_MILLIS, "20 GETs took " + millis + " ms beside 20 slow bodies");
            for (RawHttp http : slow) {
                assertEquals(408, http.readResponse().status());
            }
        } finally {
            for (RawHttp http : slow) {
                http.close();
            }
        }
    }

    @Test
    void aBodyInPiecesWithinTheDeadlineIsStoredAndTimed() throws Exception {
        long postsBefore = ridePosts();
        try (RawHttp http = startRide(7)) {
            Thread.sleep(300);
            http.send(RIDE.substring(1, 10));
            Thread.sleep(300);
            http.send(RIDE.substring(10));
            assertEquals(201, http.readResponse().status());
        }
        RawHttp.Response vertical =
                RawHttp.exchange(server.port(), "GET " + RIDE_PATH + "7 HTTP/1.1\r\nHost: t\r\n\r\n");
        assertEquals("210", vertical.body());
        assertEquals(postsBefore + 1, ridePosts(), "the async POST is counted in /statistics");
    }

    private static long ridePosts() throws IOException {
        String body = RawHttp.exchange(server.port(), "GET /liftride/statistics HTTP/1.1\r\nHost: t\r\n\r\n")
                .body();
        int post = body.indexOf("\"operation\":\"POST\"");
        if (post < 0) {
            return 0;
        }
        int at = body.indexOf("\"count\":", post) + "\"count\":".length();
        int end = at;
        while (Character.isDigit(body.charAt(end))) {
            end++;
        }
        return Long.parseLong(body.substring(at, end));
    }
}
