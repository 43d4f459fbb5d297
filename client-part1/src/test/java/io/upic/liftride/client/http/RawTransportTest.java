package io.upic.liftride.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import io.upic.liftride.client.transport.Transport;
import io.upic.liftride.cluster.FreePorts;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okhttp3.mockwebserver.SocketPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The raw transport against a scripted server: what it sends, what it reads, when it reconnects. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RawTransportTest {

    private MockWebServer server;

    @BeforeEach
    void startServer() throws IOException {
        server = new MockWebServer();
        server.start();
    }

    @AfterEach
    void stopServer() throws IOException {
        server.shutdown();
    }

    private RideSenderFactory open(Transport transport, int readTimeoutMillis) {
        return transport.open(new HttpSettings(server.url("/liftride").toString(), 2_000, readTimeoutMillis, 4));
    }

    @Test
    void sendsTheSameRequestAsTheGeneratedSdk() throws Exception {
        server.enqueue(new MockResponse().setResponseCode(201));
        server.enqueue(new MockResponse().setResponseCode(201));
        try (RideSenderFactory sdk = open(Transport.SDK, 5_000);
                RideSender s = sdk.create()) {
            assertEquals(201, s.send(12, 2022, 7, 100000, 60, 420, 10, "ride-1"));
        }
        try (RideSenderFactory raw = open(Transport.RAW, 5_000);
                RideSender s = raw.create()) {
            assertEquals(201, s.send(12, 2022, 7, 100000, 60, 420, 10, "ride-1"));
        }
        RecordedRequest bySdk = server.takeRequest();
        RecordedRequest byRaw = server.takeRequest();
        assertEquals("POST /liftride/skiers/12/seasons/2022/days/7/skiers/100000 HTTP/1.1", byRaw.getRequestLine());
        assertEquals(bySdk.getRequestLine(), byRaw.getRequestLine());
        assertEquals(bySdk.getHeader("Host"), byRaw.getHeader("Host"));
        assertTrue(bySdk.getHeader("Content-Type").startsWith("application/json"), bySdk.getHeader("Content-Type"));
        assertEquals("application/json", byRaw.getHeader("Content-Type"));
        assertEquals("ride-1", bySdk.getHeader("Idempotency-Key"), "both transports send the ride's key");
        assertEquals("ride-1", byRaw.getHeader("Idempotency-Key"));
        String rawBody = byRaw.getBody().readUtf8();
        assertEquals("{\"liftID\":60,\"time\":420,\"waitTime\":10}", rawBody);
        assertEquals(Long.toString(rawBody.length()), byRaw.getHeader("Content-Length"));
        assertEquals(JsonParser.parseString(bySdk.getBody().readUtf8()), JsonParser.parseString(rawBody));
    }

    @Test
    void keepsOneConnectionAcrossAnswersWithAndWithoutBodies() throws Exception {
        server.enqueue(new MockResponse().setResponseCode(201));
        server.enqueue(new MockResponse()
                .setResponseCode(400)
                .setHeader("Content-Type", "application/json")
                .setBody("{\"message\":\"liftID must be an integer in 1..60, got 61\"}"));
        server.enqueue(new MockResponse()
                .setResponseCode(503)
                .setChunkedBody("{\"message\":\"" + "x".repeat(5000) + "\"}", 700));
        server.enqueue(new MockResponse().setResponseCode(201).setBody(""));
        try (RideSenderFactory raw = open(Transport.RAW, 5_000);
                RideSender s = raw.create()) {
            assertEquals(201, s.send(1, 2022, 1, 1, 1, 1, 0, "ride-1"));
            assertEquals(400, s.send(1, 2022, 1, 2, 1, 1, 0, "ride-1"));
            assertEquals(503, s.send(1, 2022, 1, 3, 1, 1, 0, "ride-1"));
            assertEquals(201, s.send(1, 2022, 1, 4, 1, 1, 0, "ride-1"));
        }
        for (int i = 0; i < 4; i++) {
            RecordedRequest r = server.takeRequest();
            assertEquals(i, r.getSequenceNumber(), "request " + i + " reused the first connection");
            assertTrue(r.getPath().endsWith("/skiers/" + (i + 1)), r.getPath());
        }
        assertEquals(4, server.getRequestCount());
    }

    @Test
    void reconnectsAfterTheServerAsksToClose() throws Exception {
        server.enqueue(new MockResponse()
                .setResponseCode(201)
                .setHeader("Connection", "close")
                .setSocketPolicy(SocketPolicy.DISCONNECT_AT_END));
        server.enqueue(new MockResponse().setResponseCode(201));
        try (RideSenderFactory raw = open(Transport.RAW, 5_000);
                RideSender s = raw.create()) {
            assertEquals(201, s.send(1, 2022, 1, 1, 1, 1, 0, "ride-1"));
            assertEquals(201, s.send(1, 2022, 1, 2, 1, 1, 0, "ride-1"));
        }
        assertEquals(0, server.takeRequest().getSequenceNumber());
        assertEquals(0, server.takeRequest().getSequenceNumber(), "second request on a new connection");
    }

    @Test
    void aConnectionDroppedAfterTheRequestIsAnIoErrorAndTheNextSendReconnects() throws Exception {
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.DISCONNECT_AFTER_REQUEST));
        server.enqueue(new MockResponse().setResponseCode(201));
        try (RideSenderFactory raw = open(Transport.RAW, 5_000);
                RideSender s = raw.create()) {
            IOException e = assertThrows(IOException.class, () -> s.send(1, 2022, 1, 1, 1, 1, 0, "ride-1"));
            assertEquals(AttemptCodes.CONNECTION_ERROR, AttemptCodes.classify(e));
            assertEquals(201, s.send(1, 2022, 1, 2, 1, 1, 0, "ride-1"));
        }
        assertEquals(2, server.getRequestCount());
    }

    @Test
    void aStalledAnswerIsATimeoutNotAHang() {
        server.enqueue(new MockResponse().setSocketPolicy(SocketPolicy.NO_RESPONSE));
        try (RideSenderFactory raw = open(Transport.RAW, 300);
                RideSender s = raw.create()) {
            long start = System.nanoTime();
            IOException e = assertThrows(SocketTimeoutException.class, () -> s.send(1, 2022, 1, 1, 1, 1, 0, "ride-1"));
            assertEquals(AttemptCodes.TIMEOUT, AttemptCodes.classify(e));
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000, "bounded by the read timeout");
        }
    }

    @Test
    void aBodyThatStopsMidwayIsATimeout() {
        server.enqueue(
                new MockResponse().setResponseCode(201).setBody("0123456789").throttleBody(5, 2, TimeUnit.SECONDS));
        try (RideSenderFactory raw = open(Transport.RAW, 300);
                RideSender s = raw.create()) {
            assertThrows(SocketTimeoutException.class, () -> s.send(1, 2022, 1, 1, 1, 1, 0, "ride-1"));
        }
    }

    @Test
    void aRefusedConnectionIsAConnectionError() throws IOException {
        int port = FreePorts.next();
        HttpSettings settings = new HttpSettings("http://127.0.0.1:" + port + "/liftride", 1_000, 1_000, 1);
        try (RideSenderFactory raw = Transport.RAW.open(settings);
                RideSender s = raw.create()) {
            IOException e = assertThrows(ConnectException.class, () -> s.send(1, 2022, 1, 1, 1, 1, 0, "ride-1"));
            assertEquals(AttemptCodes.CONNECTION_ERROR, AttemptCodes.classify(e));
        }
    }

    @Test
    void aGarbledStatusLineIsAnIoError() {
        server.enqueue(new MockResponse().setStatus("HTTP/1.1 2x1 Nope"));
        try (RideSenderFactory raw = open(Transport.RAW, 2_000);
                RideSender s = raw.create()) {
            assertThrows(IOException.class, () -> s.send(1, 2022, 1, 1, 1, 1, 0, "ride-1"));
        }
    }

    @Test
    void refusesHttpsBecauseItSpeaksPlainHttpOnly() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Transport.RAW.open(new HttpSettings("https://127.0.0.1:8443/liftride", 1_000, 1_000, 1)));
        assertEquals("the raw transport speaks plain http only, got https://127.0.0.1:8443/liftride", e.getMessage());
    }

    @Test
    void refusesABaseUrlTooLongForItsRequestBuffer() {
        String url = "http://127.0.0.1:8080/" + "p".repeat(900);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Transport.RAW.open(new HttpSettings(url, 1_000, 1_000, 1)));
        assertTrue(e.getMessage().startsWith("the raw transport's requests are at most 1024 bytes"), e.getMessage());
    }
}
