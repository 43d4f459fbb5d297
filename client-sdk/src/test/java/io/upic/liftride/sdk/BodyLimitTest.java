package io.upic.liftride.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.sdk.api.SkiersApi;
import io.upic.liftride.sdk.api.StatisticsApi;
import io.upic.liftride.sdk.model.LiftRide;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ApiClient template reads answers' bodies with a limit: a server cannot fill the client's heap. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BodyLimitTest {

    private MockWebServer server;
    private ApiClient client;

    @BeforeEach
    void start() throws Exception {
        server = new MockWebServer();
        server.start();
        client = new ApiClient();
        client.setBasePath(server.url("/liftride").toString());
    }

    @AfterEach
    void stop() throws Exception {
        server.shutdown();
    }

    private ApiException postRide() {
        return assertThrows(
                ApiException.class,
                () -> new SkiersApi(client)
                        .writeNewLiftRide(new LiftRide().liftID(1).time(1).waitTime(1), 1, "2022", "1", 1, null));
    }

    @Test
    void anErrorBodyIsKeptUpToTheLimitAndTheRestIsNotRead() {
        assertEquals(64 * 1024, client.getMaxErrorBodyBytes());
        server.enqueue(new MockResponse().setResponseCode(500).setBody(new Buffer().write(new byte[10 << 20])));
        ApiException e = postRide();
        assertEquals(500, e.getCode());
        assertEquals(64 * 1024, e.getResponseBody().length());
    }

    @Test
    void aShortErrorBodyIsKeptWhole() {
        server.enqueue(new MockResponse().setResponseCode(400).setBody("{\"message\":\"liftID must be 1..60\"}"));
        ApiException e = postRide();
        assertEquals(400, e.getCode());
        assertEquals("{\"message\":\"liftID must be 1..60\"}", e.getResponseBody());
    }

    @Test
    void aSuccessfulBodyOverTheLimitIsAnErrorNamingTheLimit() {
        client.setMaxBodyBytes(100);
        server.enqueue(new MockResponse()
                .setResponseCode(200)
                .setHeader("Content-Type", "application/json")
                .setBody("{\"ridesStored\": 1, \"pad\": \"" + "x".repeat(200) + "\"}"));
        ApiException e = assertThrows(ApiException.class, () -> new StatisticsApi(client).getPerformanceStats());
        assertEquals(200, e.getCode());
        assertTrue(e.getMessage().contains("larger than 100 bytes"), e.getMessage());
        assertNull(e.getResponseBody());
    }

    @Test
    void aSuccessfulBodyWithinTheLimitIsRead() throws ApiException {
        client.setMaxBodyBytes(100);
        server.enqueue(new MockResponse()
                .setResponseCode(200)
                .setHeader("Content-Type", "application/json")
                .setBody("{\"ridesStored\": 7}"));
        assertEquals(7L, new StatisticsApi(client).getPerformanceStats().getRidesStored());
    }

    @Test
    void negativeLimitsAreRefusedNamingTheValue() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> client.setMaxErrorBodyBytes(-1));
        assertEquals("maxErrorBodyBytes < 0: -1", e.getMessage());
    }
}
