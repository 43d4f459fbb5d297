package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.JsonAssertions.errorMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
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

/** The ride POST's Idempotency-Key through real HTTP, on the default (in-memory) store. */
@Timeout(60)
class IdempotencyKeyIT {
    private static EmbeddedServer server;
    private static final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

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

    static HttpResponse<String> post(String base, String path, String key, String json)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofString(json));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return client.send(request.build(), BodyHandlers.ofString());
    }

    static long ridesStored(String base) throws IOException, InterruptedException {
        HttpResponse<String> stats = client.send(
                HttpRequest.newBuilder(URI.create(base + "/statistics")).build(), BodyHandlers.ofString());
        return JsonParser.parseString(stats.body())
                .getAsJsonObject()
                .get("ridesStored")
                .getAsLong();
    }

    @Test
    void answersARetryWith201AgainAndStoresTheRideOnce() throws Exception {
        String base = server.baseUrl();
        long before = ridesStored(base);
        String path = "/skiers/3/seasons/2022/days/1/skiers/31";
        HttpResponse<String> first = post(base, path, "run-7-0-1", "{\"liftID\":21,\"time\":217}");
        assertEquals(201, first.statusCode(), first::body);
        assertFalse(first.headers().firstValue("Idempotent-Replayed").isPresent());
        HttpResponse<String> retry = post(base, path, "run-7-0-1", "{\"time\":217,\"liftID\":21}");
        assertEquals(201, retry.statusCode(), retry::body);
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(null));
        assertEquals(before + 1, ridesStored(base));
    }

    @Test
    void refusesAKeyAlreadyUsedForAnotherRideWith422() throws Exception {
        String base = server.baseUrl();
        String path = "/skiers/3/seasons/2022/days/1/skiers/32";
        assertEquals(
                201, post(base, path, "k-422", "{\"liftID\":21,\"time\":217}").statusCode());
        long before = ridesStored(base);
        HttpResponse<String> other = post(base, path, "k-422", "{\"liftID\":22,\"time\":217}");
        String message = errorMessage(other, 422);
        assertTrue(message.contains("Idempotency-Key \"k-422\" was already used for a different ride"), message);
        assertEquals(before, ridesStored(base));
    }

    @Test
    void refusesAMalformedKeyNamingTheHeader() throws Exception {
        String base = server.baseUrl();
        String path = "/skiers/3/seasons/2022/days/1/skiers/33";
        String tooLong = "k".repeat(129);
        String message = errorMessage(post(base, path, tooLong, "{\"liftID\":21,\"time\":217}"), 400);
        assertTrue(message.startsWith("Idempotency-Key must be 1..128 visible ASCII characters, got \"kkk"), message);
        message = errorMessage(post(base, path, "two words", "{\"liftID\":21,\"time\":217}"), 400);
        assertEquals("Idempotency-Key must be 1..128 visible ASCII characters, got \"two words\"", message);
    }

    @Test
    void saysWhichStoreAnswersInStatistics() throws Exception {
        HttpResponse<String> stats = client.send(
                HttpRequest.newBuilder(URI.create(server.managementUrl() + "/statistics"))
                        .build(),
                BodyHandlers.ofString());
        assertEquals(
                "memory",
                JsonParser.parseString(stats.body())
                        .getAsJsonObject()
                        .get("store")
                        .getAsString());
    }
}
