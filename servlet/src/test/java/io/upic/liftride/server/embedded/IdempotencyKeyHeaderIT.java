package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.JsonAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The ride POST's optional Idempotency-Key header through real HTTP: checked as the contract states, first. */
@Timeout(60)
class IdempotencyKeyHeaderIT {
    private static final String RIDE = "{\"liftID\":21,\"time\":217,\"waitTime\":3}";
    private static final String PATH = "/skiers/3/seasons/2022/days/7/skiers/42";
    private static EmbeddedServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedServer.start("127.0.0.1", 0);
        client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static HttpResponse<String> post(String key, String contentType, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUrl() + PATH))
                .timeout(Duration.ofSeconds(10))
                .POST(BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return client.send(request.build(), BodyHandlers.ofString());
    }

    @Test
    void aRideWithAVisibleAsciiKeyOrWithoutOneIsStored() throws Exception {
        assertEquals(201, post("run1-thread7-seq42", "application/json", RIDE).statusCode());
        assertEquals(201, post("~".repeat(128), "application/json", RIDE).statusCode());
        assertEquals(201, post(null, "application/json", RIDE).statusCode());
    }

    @Test
    void aKeyOutsideTheContractIsA400NamingTheRule() throws Exception {
        assertError(
                post("a b", "application/json", RIDE),
                400,
                "Idempotency-Key must be 1..128 visible ASCII characters, got \"a b\"");
        assertError(
                post("k".repeat(129), "application/json", RIDE),
                400,
                "Idempotency-Key must be 1..128 visible ASCII characters, got \"" + "k".repeat(40)
                        + "...\" (129 characters)");
    }

    @Test
    void theKeyIsCheckedBeforeTheContentTypeAndTheBody() throws Exception {
        assertError(
                post("bad key", null, "not json"),
                400,
                "Idempotency-Key must be 1..128 visible ASCII characters, got \"bad key\"");
    }

    @Test
    void twoKeysInOneRequestAreA400AndStoreNothing() throws Exception {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/skiers/3/seasons/2022/days/8/skiers/42"))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", "first")
                        .header("Idempotency-Key", "second")
                        .POST(BodyPublishers.ofString(RIDE))
                        .build(),
                BodyHandlers.ofString());
        assertError(response, 400, "Idempotency-Key must be sent once, got 2 of them");
        HttpResponse<String> vertical = client.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/skiers/3/seasons/2022/days/8/skiers/42"))
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                BodyHandlers.ofString());
        assertEquals(404, vertical.statusCode(), "nothing was stored: " + vertical.body());
    }
}
